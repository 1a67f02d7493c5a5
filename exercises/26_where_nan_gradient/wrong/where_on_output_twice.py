# expect: grad_finite
# Two wheres, but both on the output: sqrt still sees 0, so its derivative is still inf there.
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    root = jnp.where(sq > 0, jnp.sqrt(sq), 0.0)
    return jnp.where(jnp.isfinite(root), root, 0.0)
