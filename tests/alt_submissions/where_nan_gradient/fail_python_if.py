# expect: runs
# Branches in Python on whether any vector is zero: inside jit that is a traced value.
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    if jnp.all(sq > 0):
        return jnp.sqrt(sq)
    return jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
