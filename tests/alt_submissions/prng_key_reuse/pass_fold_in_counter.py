# expect: pass
# Derives every key with fold_in and distinct numbers: 1 and 2 for the views, 3 for the next call.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    masks = [jax.random.bernoulli(jax.random.fold_in(key, i), 0.75, x.shape) for i in (1, 2)]
    return (*(jnp.where(m, x / 0.75, 0.0) for m in masks), jax.random.fold_in(key, 3))
