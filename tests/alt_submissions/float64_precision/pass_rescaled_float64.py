# expect: pass
# Subtracts the first timestamp on the host (in float64), then computes the gaps in float64 under jit.
import jax
import numpy as np


@jax.jit
def _gaps(rel):
    return rel[1:] - rel[:-1]


def gaps(t):
    rel = np.asarray(t, dtype=np.float64) - t[0]
    with jax.enable_x64(True):
        return _gaps(rel)
