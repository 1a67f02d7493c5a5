# expect: values
# Zeroes the bad values but leaves the good ones where they were instead of moving them to the front.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    kept = jnp.where(good, x, 0.0)
    return kept, count, jnp.where(count > 0, kept.sum() / jnp.maximum(count, 1), 0.0)
