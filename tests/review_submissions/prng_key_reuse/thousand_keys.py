# expect: pass
# review: review.cost.work
# Right, but wasteful: a thousand keys are split on every call to use three of them.
import jax
import jax.numpy as jnp

KEEP = 0.75


@jax.jit
def two_views(key, x):
    keys = jax.random.split(key, 1000)
    keep_a = jax.random.bernoulli(keys[1], KEEP, x.shape)
    keep_b = jax.random.bernoulli(keys[2], KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), keys[0]
