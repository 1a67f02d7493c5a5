# expect: precise
# Shifts the timestamps close to zero on the host, then leaves JAX in float32: a span of hours in
# float32 still cannot hold microseconds.
import jax
import numpy as np


@jax.jit
def _gaps(rel):
    return rel[1:] - rel[:-1]


def gaps(t):
    return _gaps(np.asarray(t - t[0], dtype=np.float32))
