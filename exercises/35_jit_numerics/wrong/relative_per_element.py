# expect: accepts_rounding
# A relative tolerance element by element: where the eager result is exactly 0, no relative tolerance accepts
# the rounding residue the jitted one keeps.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    return bool(np.all(np.abs(a - e) <= 1e-5 * np.abs(e)))
