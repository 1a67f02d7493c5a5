# expect: runs
# Converts n to a Python int to slice with it: under jit, n is a tracer with no value to convert.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    return jnp.sum(x[: int(n)])
