# expect: pass
# One split into three keys; the two masks come from a vmap over two of them.
import jax
import jax.numpy as jnp

P_KEEP = 0.75


@jax.jit
def two_views(key, x):
    keys = jax.random.split(key, 3)
    masks = jax.vmap(lambda k: jax.random.bernoulli(k, P_KEEP, x.shape))(keys[:2])
    views = jnp.where(masks, x[None] / P_KEEP, 0.0)
    return views[0], views[1], keys[2]
