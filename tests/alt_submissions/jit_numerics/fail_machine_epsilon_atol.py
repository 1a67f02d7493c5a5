# expect: accepts_rounding
# Uses float32's machine epsilon as an absolute tolerance: one rounding step of 1, not of the values at hand.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    return bool(np.allclose(expected, actual, rtol=0, atol=np.finfo(np.float32).eps))
