# expect: pass
# The double where with 0.0 as the stand-in: sqrt still sees 0 and its backward pass makes a NaN, but the
# inner where's gradient is a selection, not a product, so the zero vectors get exactly 0.
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    safe = jnp.where(sq > 0, sq, 0.0)
    return jnp.where(sq > 0, jnp.sqrt(safe), 0.0)
