# expect: accepts_rounding
# The right rule, but it returns the element-by-element answers (an array), not one True or False.
import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    return trend * t + level


def residual(observed, trend, t):
    return observed - trend * t


def close_enough(expected, actual):
    scale = jnp.max(jnp.abs(expected))
    return jnp.abs(actual - expected) <= 1e-5 * scale
