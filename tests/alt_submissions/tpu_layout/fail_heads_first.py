# expect: values
# Stores the cache as attention reads it, heads before positions, (32, 12, 64, 64): a transpose, so the values are
# in another row-major order than (batch, position, head, dim).
import jax.numpy as jnp


def keys(x, w):
    return jnp.transpose((x @ w).reshape(32, 64, 12, 64), (0, 2, 1, 3))
