# expect: rejects_bugs
# Compares the mean absolute difference with the mean magnitude, with a loose 1e-2: one wrong element is
# averaged away, and a sign flipped in the largest one is too.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    return bool(np.mean(np.abs(a - e)) <= 1e-2 * np.mean(np.abs(e)))
