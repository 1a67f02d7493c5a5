# expect: accepts_rounding
# A fixed absolute tolerance of 1e-5: fine at magnitude 1, far too strict at 1e5, where one rounding step is
# already about 1e-2.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    return bool(np.allclose(expected, actual, rtol=1e-5, atol=1e-5))
