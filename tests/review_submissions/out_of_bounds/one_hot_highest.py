# expect: pass
# review: review.cost.work
# Heavy but right: every lookup is a one-hot row over the whole menu times the prices at HIGHEST precision, where
# one gather would do.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    valid = (dishes >= 0) & (dishes < prices.shape[0])
    onehot = jax.nn.one_hot(dishes, prices.shape[0], dtype=prices.dtype)
    found = jnp.dot(onehot, prices, precision=jax.lax.Precision.HIGHEST)
    return jnp.where(valid, found, -1.0)
