# expect: samples_differ
# View B's mask is view A's rolled by one place: every element still kept with probability 0.75, and the two
# masks agree in the same place only as often as independent ones, but B follows from A.
import jax
import jax.numpy as jnp

KEEP = 0.75


def two_views(key, x):
    key, sub, nxt = jax.random.split(key, 3)
    keep_a = jax.random.bernoulli(sub, KEEP, x.shape)
    keep_b = jnp.roll(keep_a, 1)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), nxt
