# expect: pass
# review: review.left.float64
# Right, in float64: the squared lengths are summed in float64 (64-bit types on) and cast back to float32.
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


@jax.jit
def lengths(v):
    w = v.astype(jnp.float64)
    sq = jnp.sum(w * w, axis=-1)
    nonzero = sq > 0
    safe = jnp.where(nonzero, sq, 1.0)
    return jnp.where(nonzero, jnp.sqrt(safe), 0.0).astype(jnp.float32)
