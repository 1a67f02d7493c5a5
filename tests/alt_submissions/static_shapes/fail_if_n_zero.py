# expect: runs
# Special-cases n == 0 with a Python if on a traced value.
import jax.numpy as jnp


def sum_first_n(x, n):
    if n == 0:
        return jnp.float32(0)
    return jnp.cumsum(x)[n - 1]
