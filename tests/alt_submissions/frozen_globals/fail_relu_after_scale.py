# expect: follows_scale
# Scales first, then applies the relu: the same for a positive scale, not for a negative one (which the
# contract allows, and the grader always draws).
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x * scale)
