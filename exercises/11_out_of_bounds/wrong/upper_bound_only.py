# expect: out_of_range
# Checks only the end of the menu; negative numbers read real prices.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    return jnp.where(dishes < prices.shape[0], prices[dishes], -1.0)
