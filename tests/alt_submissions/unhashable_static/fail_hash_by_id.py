# expect: one_per_value
# A list subclass made hashable with id(): equal lists still hash differently, so every call compiles.
from functools import partial

import jax
import jax.numpy as jnp


class HashableList(list):
    def __hash__(self):
        return id(self)


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, windows=HashableList(windows))
