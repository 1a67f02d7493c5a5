# expect: values
# Buckets nicely (one compile), but divides by the bucket width: the padding zeros drag every mean toward 0.
import jax
import numpy as np


@jax.jit
def means(x):
    return x.sum(axis=1) / x.shape[1]


def batch_means(seqs):
    width = 1 << (max(len(s) for s in seqs) - 1).bit_length()
    x = np.zeros((16, width), np.float32)
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
    return means(x)
