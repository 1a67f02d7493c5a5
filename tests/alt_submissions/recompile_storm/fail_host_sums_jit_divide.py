# expect: reaches_jit
# Sums on the host with NumPy and only divides under jit: the sequences themselves never reach jit.
import jax
import numpy as np


@jax.jit
def divide(sums, counts):
    return sums / counts


def batch_means(seqs):
    sums = np.array([s.sum() for s in seqs], np.float32)
    counts = np.array([len(s) for s in seqs], np.float32)
    return divide(sums, counts)
