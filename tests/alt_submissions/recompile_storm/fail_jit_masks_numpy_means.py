# expect: reaches_jit
# Wrong: the jitted function only zeroes the padding and hands the whole (16, 64) array back; the means are taken
# with NumPy afterwards. The jitted call returns as much data as it received, so reaches_jit must fail.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def masked(padded, lengths):
    mask = jnp.arange(padded.shape[1])[None, :] < lengths[:, None]
    return jnp.where(mask, padded, 0.0)


def batch_means(seqs):
    lengths = np.array([len(s) for s in seqs], np.float32)
    padded = np.zeros((16, 64), np.float32)
    for row, s in zip(padded, seqs):
        row[: len(s)] = s
    return np.asarray(masked(padded, lengths)).sum(axis=1) / lengths
