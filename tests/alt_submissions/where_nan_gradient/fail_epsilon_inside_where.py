# expect: values
# Guards with where, but feeds sqrt the squared length plus 1e-20 in both branches, so even the kept branch is off.
import jax.numpy as jnp


def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    safe = jnp.where(sq > 0, sq, 1.0)
    return jnp.where(sq > 0, jnp.sqrt(safe + 1e-20), jnp.sqrt(1e-20))
