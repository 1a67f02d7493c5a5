# expect: runs
# NumPy-style: check each number with a Python if. Inside jit the numbers are tracers, with no value to compare.
import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    out = []
    for d in dishes:
        out.append(prices[d] if 0 <= d < prices.shape[0] else -1.0)
    return jnp.stack(out)
