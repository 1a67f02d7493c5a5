# expect: accepts_rounding
# np.allclose with its defaults (rtol=1e-5, atol=1e-8): the atol is far too small next to the eager zeros of
# a cancelling residual at a large magnitude.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    return bool(np.allclose(expected, actual))
