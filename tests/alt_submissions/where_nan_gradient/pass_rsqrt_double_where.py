# expect: pass
# The double where with lax.rsqrt: sq * rsqrt(sq) is the length, and exactly 0 where the vector is zero.
import jax.numpy as jnp
from jax import lax


def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    nonzero = sq > 0
    safe = jnp.where(nonzero, sq, 1.0)
    return jnp.where(nonzero, safe * lax.rsqrt(safe), 0.0)
