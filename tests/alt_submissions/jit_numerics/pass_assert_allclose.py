# expect: pass
# NumPy's testing helper inside try/except, with a tolerance relative to the largest magnitude.
import jax
import jax.numpy as jnp
import numpy as np


def close_enough(expected, actual):
    e = np.asarray(expected, dtype=np.float64)
    try:
        np.testing.assert_allclose(np.asarray(actual, dtype=np.float64), e, rtol=0, atol=2e-5 * np.abs(e).max())
    except AssertionError:
        return False
    return True
