# expect: values
# Masks correctly but returns the masked array, not its sum.
import jax.numpy as jnp


def sum_first_n(x, n):
    return jnp.where(jnp.arange(16) < n, x, 0.0)
