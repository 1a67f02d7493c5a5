# expect: computed_in_jit
# A right jitted gap function runs on the timestamps, in float64, but gaps returns NumPy's diff instead.
import jax
import numpy as np


@jax.jit
def _diff(t):
    return t[1:] - t[:-1]


def gaps(t):
    with jax.enable_x64(True):
        _diff(t)
    return np.diff(t)
