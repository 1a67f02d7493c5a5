# expect: follows_scale
# Binds SCALE as a default argument, but still multiplies by the global: it is frozen just the same.
import jax.numpy as jnp

SCALE = 2.0


def scaled_relu(x, scale=SCALE):
    return jnp.maximum(0, x) * SCALE
