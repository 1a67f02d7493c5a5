# expect: computed_in_jit
# Computes the gaps with NumPy in float64 and only hands the finished numbers through jit.
import jax
import numpy as np


@jax.jit
def _identity(x):
    return x


def gaps(t):
    with jax.enable_x64(True):
        return _identity(np.diff(t))
