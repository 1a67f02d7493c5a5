# expect: one_per_value
# A list subclass made hashable with id(): equal lists still hash differently, so every call compiles.
from functools import partial

import jax
import jax.numpy as jnp


class HashableList(list):
    def __hash__(self):
        return id(self)


# Every list is kept, so no later one can reuse a freed one's id, and every call passes a hash JAX has not seen.
# Whether a lookup hits anyway still follows chance (see CHANCE in tests/goldens.py): the failing check does not.
_made: list[HashableList] = []


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    _made.append(HashableList(windows))
    return _pool(x, windows=_made[-1])
