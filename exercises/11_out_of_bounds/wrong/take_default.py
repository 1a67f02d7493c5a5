# expect: out_of_range
# jnp.take does not clamp: its default fills out-of-range reads, but with nan, not -1.0 (and -1 still wraps).
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    return jnp.take(prices, dishes)
