# expect: pass
# np.allclose with an absolute tolerance scaled by the largest expected magnitude.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected)
    return bool(np.allclose(e, np.asarray(actual), rtol=1e-5, atol=1e-6 * np.max(np.abs(e))))
