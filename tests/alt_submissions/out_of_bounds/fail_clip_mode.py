# expect: out_of_range
# An explicit mode, but the wrong one: clip reads the edge prices.
import jax.numpy as jnp


def lookup_prices(prices, dishes):
    return jnp.take(prices, dishes, mode="clip")
