# expect: pass
# A default from SCALE is evaluated once at definition time; the grader always passes scale, which is used.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale=SCALE):
    return jnp.maximum(x, 0.0) * jnp.asarray(scale, x.dtype)
