# expect: pass
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    mask = x > 0
    n = mask.sum()
    kept = jnp.extract(mask, x, size=x.size, fill_value=0.0)
    mean = jnp.where(n == 0, 0.0, jnp.sum(x, where=mask) / jnp.where(n == 0, 1, n))
    return kept, n, mean
