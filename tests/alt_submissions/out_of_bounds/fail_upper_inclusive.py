# expect: out_of_range
# Off by one at the top: dish n is let through and clamps to the last dish.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    valid = (dishes >= 0) & (dishes <= prices.shape[0])
    return jnp.where(valid, prices[dishes], -1.0)
