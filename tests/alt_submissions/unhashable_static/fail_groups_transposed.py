# expect: values
# Groups the wrong way: x.reshape(w, -1).mean(axis=0) takes every (24 // w)-th element, which is only right for
# windows 1 and 24; every graded run draws a window from 2 to 12 as well.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=1)
def _pool(x, windows):
    return jnp.concatenate([x.reshape(w, -1).mean(axis=0) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, tuple(windows))
