# Pads with jnp.zeros(64).at[:n].set(s), eagerly: the scatter is compiled again for every new length.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def masked_means(x, n):
    keep = jnp.arange(64)[None, :] < n[:, None]
    return jnp.where(keep, x, 0.0).sum(axis=1) / n


def batch_means(seqs):
    rows = jnp.stack([jnp.zeros(64).at[: len(s)].set(s) for s in seqs])
    return masked_means(rows, np.array([len(s) for s in seqs], np.float32))
