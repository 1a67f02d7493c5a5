import jax.numpy as jnp


def sum_first_n(x, n):
    weights = (jnp.arange(x.size) < n).astype(x.dtype)
    return jnp.dot(weights, x)
