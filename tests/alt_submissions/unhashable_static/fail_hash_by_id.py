# expect: one_per_value
# A list subclass made hashable with id(): equal lists still hash differently, so a call with an equal list misses
# the cache and traces again.
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
    # JAX's cache holds every static value it saw, so no id is reused; an equal list's lookup may still hit by
    # chance (CHANCE in tests/goldens.py), which changes the count of traces, never the failing check.
    return _pool(x, windows=HashableList(windows))
