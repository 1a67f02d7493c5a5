# A local variable named SCALE shadows the global: nothing global is read or written.
import jax.numpy as jnp

SCALE = 2.0


def scaled_relu(x, scale):
    SCALE = scale
    return jnp.clip(x, 0, None) * SCALE
