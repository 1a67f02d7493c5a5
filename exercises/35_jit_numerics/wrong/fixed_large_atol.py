# expect: rejects_bugs
# A fixed absolute tolerance of 1 accepts the rounding at every magnitude, and also hides a real error in an
# array whose values are all around 1e-2.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    return bool(np.allclose(expected, actual, rtol=1e-5, atol=1.0))
