# expect: no_reuse
# The two views now use two split keys, but the key that came in is handed back: it was used up by the split,
# and the next call splits it again into the very same keys.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    key_a, key_b = jax.random.split(key)
    keep_a = jax.random.bernoulli(key_a, 0.75, x.shape)
    keep_b = jax.random.bernoulli(key_b, 0.75, x.shape)
    return jnp.where(keep_a, x / 0.75, 0.0), jnp.where(keep_b, x / 0.75, 0.0), key
