# expect: accepts_rounding
# jnp.allclose with its defaults: an absolute tolerance of 1e-8 whatever the magnitude.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    return bool(jnp.allclose(expected, actual))
