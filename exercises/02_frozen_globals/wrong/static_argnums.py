# expect: one_compile
# Marks scale static so every new value retraces: the numbers are right, but each scale is a new compile.
from functools import partial

import jax
import jax.numpy as jnp

SCALE = 2.0


@partial(jax.jit, static_argnums=1)
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * scale
