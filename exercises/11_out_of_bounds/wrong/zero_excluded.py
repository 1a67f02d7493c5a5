# expect: in_range
# Off by one at the low end: dish 0 is a real dish, but > 0 throws it out.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    valid = (dishes > 0) & (dishes < prices.shape[0])
    return jnp.where(valid, prices[dishes], -1.0)
