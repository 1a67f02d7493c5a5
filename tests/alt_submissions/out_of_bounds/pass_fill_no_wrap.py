# expect: pass
# The mode route, with negative numbers treated as out of range.
import jax


@jax.jit
def lookup_prices(prices, dishes):
    return prices.at[dishes].get(mode="fill", fill_value=-1.0, wrap_negative_indices=False)
