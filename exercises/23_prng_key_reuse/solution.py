import jax
import jax.numpy as jnp

KEEP = 0.75  # each element survives with this probability


@jax.jit
def two_views(key, x):
    # One key, three independent keys: one per view, and a fresh one for the next call.
    # Each key is used once; the key that came in is only split.
    new_key, key_a, key_b = jax.random.split(key, 3)
    keep_a = jax.random.bernoulli(key_a, KEEP, x.shape)
    keep_b = jax.random.bernoulli(key_b, KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), new_key
