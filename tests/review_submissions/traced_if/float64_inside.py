# expect: pass
# review: review.left.float64
# Right, in float64: the file turns on 64-bit types and computes in float64 before casting back to float32, which
# is slow or emulated on accelerators and never needed here.
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


@jax.jit
def heat(delta):
    d = jnp.asarray(delta, jnp.float64)
    return jnp.where(d > 0, 1.5 * d + 2.0, 0.25 * d).astype(jnp.float32)
