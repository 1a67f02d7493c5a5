# expect: pass
# Splits off the key for the next call first, then splits the rest for the two views.
import jax
import jax.numpy as jnp


def two_views(key, x):
    key, sub = jax.random.split(key)
    ka, kb = jax.random.split(sub)
    a = jnp.where(jax.random.uniform(ka, x.shape) < 0.75, x / 0.75, 0)
    b = jnp.where(jax.random.uniform(kb, x.shape) < 0.75, x / 0.75, 0)
    return a, b, key
