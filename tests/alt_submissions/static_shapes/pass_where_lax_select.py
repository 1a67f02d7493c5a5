import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_first_n(x, n):
    idx = lax.iota(jnp.int32, 16)
    return lax.select(idx < n, x, jnp.zeros_like(x)).sum()
