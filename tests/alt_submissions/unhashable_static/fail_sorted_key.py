# expect: values
# Sorts the windows "to make equal configs match": [24, 12] and [12, 24] now share a program, with the wrong order.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, windows=tuple(sorted(windows)))
