# expect: samples_differ
# One draw, used twice: view B keeps the elements view A keeps, read in reverse order.
import jax
import jax.numpy as jnp

KEEP = 0.75


def two_views(key, x):
    sub, nxt = jax.random.split(key)
    keep_a = jax.random.bernoulli(sub, KEEP, x.shape)
    keep_b = keep_a.reshape(-1)[::-1].reshape(x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), nxt
