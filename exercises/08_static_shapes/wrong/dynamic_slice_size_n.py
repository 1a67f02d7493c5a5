# expect: runs
# lax.dynamic_slice takes a traced start, but its size must be a fixed number: a size of n is a traced shape.
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_first_n(x, n):
    return jnp.sum(lax.dynamic_slice(x, (0,), (n,)))
