# expect: values
# A frozenset of the windows as the static value: hashable, but it keeps the numbers and drops their order, so the
# means come in set order, and two windows values with the same numbers share one program.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, frozenset(windows))
