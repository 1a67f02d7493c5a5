# expect: leaves_scale
# Copies the argument into the global: the numbers come out right, but under jit SCALE now holds a tracer
# that leaked out of the trace, and the function still writes module state.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    global SCALE
    SCALE = scale
    return jnp.maximum(0, x) * SCALE
