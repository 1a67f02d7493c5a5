# expect: pass
# Right: a local variable named SCALE shadows the global; the global is never read.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    SCALE = scale  # a local name, not the module's SCALE
    return jnp.maximum(0, x) * SCALE
