# expect: values
# Handles the statement's "none good" and "all good" cases, and otherwise just zeroes the bad values.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    all_good = jnp.all(x > 0)
    kept = jnp.where(all_good, x, jnp.zeros_like(x))
    count = jnp.where(all_good, 16, 0)
    mean = jnp.where(all_good, jnp.mean(x), 0.0)
    return kept, count, mean
