# expect: values
# Stores the cache the way attention reads it, heads before positions: the transpose to (32, 12, 64, 64) moves the
# values, so the result is in another row-major order than the keys (and its last dimension is still 64).
import jax.numpy as jnp


def keys(x, w):
    return jnp.transpose((x @ w).reshape(32, 64, 12, 64), (0, 2, 1, 3))
