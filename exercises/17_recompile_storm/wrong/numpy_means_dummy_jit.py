# expect: reaches_jit
# No recompiles, because the real work is done by NumPy: the jitted function only sees the 16 finished means,
# never the sequences, so jit speeds up nothing.
import jax
import numpy as np


@jax.jit
def as_array(means):
    return means


def batch_means(seqs):
    means = np.array([np.mean(s) for s in seqs], dtype=np.float32)
    return as_array(means)
