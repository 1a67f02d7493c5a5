# expect: runs
# np.asarray on a tracer: TracerArrayConversionError.
import jax
import numpy as np

log = []


@jax.jit
def compute(x):
    log.append(np.asarray(x))
    return x * 2
