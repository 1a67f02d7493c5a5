# expect: values
# A "harmless" epsilon of 1e-30 under the square root: the gradient is finite everywhere, but the zero vector's
# length comes out 1e-15 instead of exactly 0.
import jax
import jax.numpy as jnp


def lengths(v):
    return jnp.sqrt(jnp.sum(v * v, axis=-1) + 1e-30)
