# expect: values
# Chooses at run time, but with >=: exactly at the target, zero gets the first formula (2.0 instead of 0.0).
import jax
import jax.numpy as jnp


@jax.jit
def heat(delta):
    return jnp.where(delta >= 0, 1.5 * delta + 2.0, 0.25 * delta)
