# expect: pass
# count is an int32 scalar straight from jnp.sum; mean a float32 scalar: any numeric dtype is fine for count.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good, dtype=jnp.int32)
    order = jnp.argsort(~good, stable=True)
    kept = jnp.where(jnp.arange(16) < count, x[order], 0.0)
    mean = jnp.sum(jnp.where(good, x, 0.0)) / jnp.maximum(count, 1)
    return kept, count, mean
