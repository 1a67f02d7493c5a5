# expect: rejects_bugs
# The right scale, but nanmax skips the NaN that marks a broken result.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    return bool(np.nanmax(np.abs(a - e)) <= 1e-5 * np.max(np.abs(e)))
