# expect: values
# Pads each head's 64 values with 64 zeros so every row fills 128 lanes: 3,145,728 values, twice as many as the
# keys, so the result is another array (and the cache as large as before).
import jax.numpy as jnp


def keys(x, w):
    k = (x @ w).reshape(32, 64, 12, 64)
    return jnp.pad(k, ((0, 0), (0, 0), (0, 0), (0, 64)))
