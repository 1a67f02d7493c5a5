# expect: rejects_bugs
# Scaled by the largest magnitude, but 5% of it: a one-element error of a percent passes.
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
    return bool(np.all(np.abs(a - e) <= 5e-2 * np.max(np.abs(e))))
