# expect: fresh_key
# expect[jax>=0.12]: no_reuse
# Splits into two keys, draws view A from the first and view B from the second, and returns the second as well:
# the next call starts from a key whose bits were already drawn. JAX 0.10's checker does not see it; 0.12's raises
# at the next call.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    key_a, key_b = jax.random.split(key)
    keep_a = jax.random.bernoulli(key_a, 0.75, x.shape)
    keep_b = jax.random.bernoulli(key_b, 0.75, x.shape)
    return jnp.where(keep_a, x / 0.75, 0.0), jnp.where(keep_b, x / 0.75, 0.0), key_b
