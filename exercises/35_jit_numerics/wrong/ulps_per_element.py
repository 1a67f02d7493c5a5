# expect: accepts_rounding
# "At most 4 ulps apart", element by element: the ulp of 0 is tiny, and a cancelled element keeps a rounding
# error of the size of the terms that cancelled.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    e = np.asarray(expected, np.float32)
    a = np.asarray(actual, np.float32)
    return bool(np.all(np.abs(a - e) <= 4 * np.spacing(np.abs(e))))
