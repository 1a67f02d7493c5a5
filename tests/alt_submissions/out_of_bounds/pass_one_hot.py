# expect: pass
# one_hot gives an all-zero row for any number outside 0..n-1 (negatives included); rows that are all zero get -1.
import jax
import jax.numpy as jnp


def lookup_prices(prices, dishes):
    hot = jax.nn.one_hot(dishes, prices.shape[0], dtype=prices.dtype)
    found = hot.sum(axis=1) > 0
    return jnp.where(found, hot @ prices, -1.0)
