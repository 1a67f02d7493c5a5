# expect: one_compile
# Makes scale static to force a retrace whenever it changes, and keeps reading SCALE: each fresh trace reads the
# value the grader just set, so the numbers are right, but it costs one compile per value.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit(static_argnames="scale")
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * SCALE
