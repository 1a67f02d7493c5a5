# expect: returns_key
# Splits correctly, but hands back the raw bits of the new key (a legacy uint32[2] key) instead of a typed key.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    new_key, ka, kb = jax.random.split(key, 3)
    a = jnp.where(jax.random.bernoulli(ka, 0.75, x.shape), x / 0.75, 0.0)
    b = jnp.where(jax.random.bernoulli(kb, 0.75, x.shape), x / 0.75, 0.0)
    return a, b, jax.random.key_data(new_key)
