# expect: values
# A frozenset is hashable and compares by value, but it forgets the order of the windows.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, windows=frozenset(windows))
