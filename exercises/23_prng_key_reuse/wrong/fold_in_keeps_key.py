# expect: samples_differ
# fold_in derives two different keys and does not use up the key, so JAX's checker is quiet; but handing the same
# key on makes every call fold in the same numbers and draw the same two masks again.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    keep_a = jax.random.bernoulli(jax.random.fold_in(key, 1), 0.75, x.shape)
    keep_b = jax.random.bernoulli(jax.random.fold_in(key, 2), 0.75, x.shape)
    return jnp.where(keep_a, x / 0.75, 0.0), jnp.where(keep_b, x / 0.75, 0.0), key
