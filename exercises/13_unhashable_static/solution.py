from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    # A tuple of ints hashes and compares by its numbers: an equal list or tuple finds the same compiled program.
    return _pool(x, windows=tuple(windows))
