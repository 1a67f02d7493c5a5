# expect: one_per_value
# Wraps the list in an object so it can be hashed: the default hash is the object's identity,
# so an equal list in a later call is a new key and compiles again.
from functools import partial

import jax
import jax.numpy as jnp


class Windows:
    def __init__(self, sizes):
        self.sizes = list(sizes)


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows.sizes])


def pyramid_pool(x, windows):
    return _pool(x, windows=Windows(windows))
