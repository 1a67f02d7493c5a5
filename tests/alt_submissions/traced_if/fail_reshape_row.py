# expect: values
# Computes both formulas as a vector and keeps the chosen one with a reshape to (1, 1): not a scalar.
import jax.numpy as jnp


def heat(delta):
    both = jnp.stack([1.5 * delta + 2.0, 0.25 * delta])
    return jnp.where(delta > 0, both[0], both[1]).reshape(1, 1)
