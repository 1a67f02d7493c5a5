# expect: samples_differ
# Works on the raw uint32 bits of the key (a legacy key) and draws both masks from them: the checker only follows
# typed keys, so it says nothing, and both views drop the same elements.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    bits = jax.random.key_data(key)
    keep_a = jax.random.bernoulli(bits, 0.75, x.shape)
    keep_b = jax.random.bernoulli(bits, 0.75, x.shape)
    next_bits = jax.random.split(bits)[0]
    return (jnp.where(keep_a, x / 0.75, 0.0), jnp.where(keep_b, x / 0.75, 0.0),
            jax.random.wrap_key_data(next_bits))
