# expect: out_of_range
# An explicit fill mode with the right fill value, but negative numbers from -n to -1 still count from the end.
import jax


@jax.jit
def lookup_prices(prices, dishes):
    return prices.at[dishes].get(mode="fill", fill_value=-1.0)
