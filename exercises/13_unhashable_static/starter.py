from functools import partial

import jax
import jax.numpy as jnp


# windows decides the output's shape, so it is static.
# TODO: the caller passes windows as a list.
@partial(jax.jit, static_argnames="windows")
def pyramid_pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])
