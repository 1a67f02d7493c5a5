# expect: pass
# Scales the tolerance by the larger magnitude of the two arrays, and rejects NaN explicitly.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    if not np.all(np.isfinite(a)):
        return False
    scale = max(np.max(np.abs(e)), np.max(np.abs(a)))
    return bool(np.max(np.abs(a - e)) <= 1e-5 * scale)
