# expect: values
# Treats exact zeros as good.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x >= 0
    count = good.sum()
    (idx,) = jnp.nonzero(good, size=16, fill_value=16)
    kept = jnp.append(x, 0.0)[idx]
    return kept, count, jnp.where(count > 0, kept.sum() / jnp.maximum(count, 1), 0.0)
