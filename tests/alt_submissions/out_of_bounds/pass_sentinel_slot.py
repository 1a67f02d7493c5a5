# expect: pass
# Append a -1.0 slot after the last dish and send every invalid number there.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    n = prices.shape[0]
    padded = jnp.concatenate([prices, jnp.array([-1.0], dtype=prices.dtype)])
    safe = jnp.where((dishes >= 0) & (dishes < n), dishes, n)
    return padded[safe]
