# expect: follows_scale
# Hard-codes the number the first call needed: every call then scales by 2.0.
import jax, jax.numpy as jnp
SCALE = 2.0
@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * 2.0
