# expect: error:jit_disabled
# Turns jit off globally so the global is read every time: it "works" by not using jit at all.
import jax
import jax.numpy as jnp

jax.config.update("jax_disable_jit", True)

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * SCALE
