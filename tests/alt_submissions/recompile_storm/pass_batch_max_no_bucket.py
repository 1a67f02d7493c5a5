# Pads to this batch's longest sequence, no buckets: one shape per distinct batch maximum, at most 10 in all.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def masked_mean(x, n):
    idx = jnp.arange(x.shape[-1])
    return jnp.sum(jnp.where(idx < n[:, None], x, 0), -1) / n


def batch_means(seqs):
    width = max(map(len, seqs))
    x = np.stack([np.pad(s, (0, width - len(s))) for s in seqs])
    n = np.array(list(map(len, seqs)))
    return masked_mean(x, n)
