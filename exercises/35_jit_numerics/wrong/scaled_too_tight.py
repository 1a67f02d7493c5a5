# expect: accepts_rounding
# Scaled by the largest magnitude, but 1e-8 of it is less than one float32 rounding step (1.2e-7): only
# bit-for-bit equal arrays pass.
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
    return bool(np.all(np.abs(a - e) <= 1e-8 * np.max(np.abs(e))))
