# expect: pass
# jnp.take with an explicit fill, plus a test for the negative numbers it would wrap.
import jax.numpy as jnp


def lookup_prices(prices, dishes):
    looked_up = jnp.take(prices, dishes, mode="fill", fill_value=-1.0)
    return jnp.where(dishes < 0, -1.0, looked_up)
