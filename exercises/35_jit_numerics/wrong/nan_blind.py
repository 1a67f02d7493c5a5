# expect: rejects_bugs
# The right scale, but written as "not bigger than": a NaN makes the maximum NaN, NaN > tol is False, and the
# broken result passes.
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
    return not np.max(np.abs(a - e)) > 1e-5 * np.max(np.abs(e))
