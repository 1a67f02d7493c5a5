# expect: values
# Adds an epsilon under the square root: no more NaN, but every small length grows.
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    return jnp.sqrt(jnp.sum(v * v, axis=-1) + 1e-12)
