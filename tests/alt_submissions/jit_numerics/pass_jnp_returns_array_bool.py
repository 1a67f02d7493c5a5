# expect: pass
# All in jax.numpy, returning the 0-d boolean array itself.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    scale = jnp.max(jnp.abs(expected))
    return jnp.all(jnp.abs(actual - expected) <= 1e-5 * scale)
