# expect: in_range
# Written for the statement's example: n = 5 hard-coded.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    valid = (dishes >= 0) & (dishes < 5)
    return jnp.where(valid, prices[dishes], -1.0)
