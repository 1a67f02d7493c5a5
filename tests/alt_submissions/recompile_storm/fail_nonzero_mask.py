# expect: values
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _means(padded):
    mask = padded != 0
    return jnp.sum(padded, axis=1) / jnp.sum(mask, axis=1)


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    return _means(padded)
