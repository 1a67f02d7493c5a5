# expect: pass
# A dropout helper reused for both views, jitted with functools.partial(jax.jit) and an unused static option.
import functools

import jax
import jax.numpy as jnp


def dropout(key, x, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), jnp.zeros_like(x))


@functools.partial(jax.jit, static_argnames="rate")
def two_views(key, x, rate=0.25):
    next_key, k1, k2 = jax.random.split(key, num=3)
    return dropout(k1, x, rate), dropout(k2, x, rate), next_key
