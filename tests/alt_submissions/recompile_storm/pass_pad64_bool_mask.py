# One fixed tray: every sequence padded to 64 on the host, plus a boolean mask.
import jax
import jax.numpy as jnp
import numpy as np

WIDTH = 64


@jax.jit
def means(values, mask):
    total = jnp.sum(values * mask, axis=1)
    count = jnp.sum(mask, axis=1)
    return total / count


def batch_means(seqs):
    values = np.zeros((len(seqs), WIDTH), np.float32)
    mask = np.zeros((len(seqs), WIDTH), np.float32)
    for i, s in enumerate(seqs):
        values[i, : len(s)] = s
        mask[i, : len(s)] = 1.0
    return means(values, mask)
