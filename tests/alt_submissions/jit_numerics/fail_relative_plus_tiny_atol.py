# expect: accepts_rounding
# A relative tolerance per element plus a fixed floor of 1e-6 for values near zero.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    return bool(np.all(np.abs(a - e) <= 1e-5 * np.abs(e) + 1e-6))
