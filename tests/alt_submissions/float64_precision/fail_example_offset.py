# expect: precise
# Subtracts the example's 1.7e9 so the numbers "fit" in float32: timestamps from 1e9 to 2e9 are still
# hundreds of millions of seconds away from it.
import jax
import numpy as np


@jax.jit
def _gaps(rel):
    return rel[1:] - rel[:-1]


def gaps(t):
    return _gaps((t - 1.7e9).astype(np.float32))
