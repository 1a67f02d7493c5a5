# expect: pass
# Counts float32 units in the last place of the largest magnitude: at most 64 of them.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, np.float32)
    a = np.asarray(actual, np.float32)
    ulp = np.spacing(np.max(np.abs(e)))
    return bool(np.max(np.abs(a.astype(np.float64) - e)) <= 64 * float(ulp))
