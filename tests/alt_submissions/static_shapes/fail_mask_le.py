# expect: values
# Off by one: <= n keeps n + 1 elements.
import jax.numpy as jnp


def sum_first_n(x, n):
    return jnp.where(jnp.arange(16) <= n, x, 0.0).sum()
