# expect: values
# Wrong: masks the padding, but divides every row's sum by the total length of the batch, not by its own length.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def means(x, n):
    keep = jnp.arange(x.shape[1])[None, :] < n[:, None]
    return jnp.sum(jnp.where(keep, x, 0.0), axis=1) / jnp.sum(n)


def batch_means(seqs):
    x = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
    return means(x, np.array([len(s) for s in seqs], np.float32))
