# expect: values
# Keys are handled right, but 0.75 is used as the probability of dropping: about 1 element in 4 survives.
import jax
import jax.numpy as jnp


@jax.jit
def two_views(key, x):
    key, key_a, key_b = jax.random.split(key, 3)
    drop_a = jax.random.bernoulli(key_a, 0.75, x.shape)
    drop_b = jax.random.bernoulli(key_b, 0.75, x.shape)
    return jnp.where(drop_a, 0.0, x / 0.75), jnp.where(drop_b, 0.0, x / 0.75), key
