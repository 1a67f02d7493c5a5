# expect: samples_differ
# Draws the masks with NumPy: inside jit that runs once, while tracing, and the masks become constants.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def two_views(key, x):
    keep_a = np.random.random(x.shape) < 0.75
    keep_b = np.random.random(x.shape) < 0.75
    return jnp.where(keep_a, x / 0.75, 0.0), jnp.where(keep_b, x / 0.75, 0.0), jax.random.split(key)[0]
