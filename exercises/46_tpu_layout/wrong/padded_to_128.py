# expect: values
# Pads each head's 64 values with zeros to 128 "so the tile is full": twice as many values, so another result, and
# the zeros take the same bytes the chip's padding took.
import jax.numpy as jnp


def keys(x, w):
    k = (x @ w).reshape(32, 64, 12, 64)
    return jnp.pad(k, ((0, 0), (0, 0), (0, 0), (0, 64)))
