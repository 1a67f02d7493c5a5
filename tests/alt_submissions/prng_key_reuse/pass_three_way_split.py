# expect: pass
# Three keys from one split: one per view and one to hand on; nothing links the two masks.
import jax
import jax.numpy as jnp

KEEP = 0.75


@jax.jit
def two_views(key, x):
    k_a, k_b, nxt = jax.random.split(key, 3)
    keep_a = jax.random.bernoulli(k_a, KEEP, x.shape)
    keep_b = jax.random.bernoulli(k_b, KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), nxt
