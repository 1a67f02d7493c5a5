# expect: reaches_jit
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _pairwise(padded):
    # adds neighbouring columns: returns 512 numbers for 1024, the averaging still happens on the host
    return padded[:, 0::2] + padded[:, 1::2]


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    lengths = np.array([len(s) for s in seqs], np.float32)
    return np.asarray(_pairwise(padded)).sum(axis=1) / lengths
