# expect: out_of_range
# Wraps every number around the menu: no number is ever out of range.
import jax


@jax.jit
def lookup_prices(prices, dishes):
    return prices[dishes % prices.shape[0]]
