# expect: pass
# Uniform draws compared with the keep rate, one independent array per view; the next key is split off first.
import jax
import jax.numpy as jnp

KEEP = 0.75


def two_views(key, x):
    nxt, sub = jax.random.split(key)
    u = jax.random.uniform(sub, (2, *x.shape))
    return jnp.where(u[0] < KEEP, x / KEEP, 0.0), jnp.where(u[1] < KEEP, x / KEEP, 0.0), nxt
