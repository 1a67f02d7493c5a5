# expect: pass
# Compares the norm of the difference with the norm of the expected array.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, dtype=np.float64)
    a = np.asarray(actual, dtype=np.float64)
    return bool(np.linalg.norm(a - e) <= 1e-5 * np.linalg.norm(e))
