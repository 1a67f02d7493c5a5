# expect: accepts_rounding
# A generous relative tolerance of 1e-3 per element, no absolute one: an eager 0 still only matches a 0.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    return bool(np.allclose(expected, actual, rtol=1e-3, atol=0.0))
