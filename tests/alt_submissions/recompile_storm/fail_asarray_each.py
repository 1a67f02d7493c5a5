# expect: compile_budget
# Converts every ragged sequence with jnp.asarray before padding: that eager conversion compiles per length.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def masked_means(x, n):
    keep = jnp.arange(64)[None, :] < n[:, None]
    return jnp.where(keep, x, 0.0).sum(axis=1) / n


def batch_means(seqs):
    rows = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        rows[i, : len(s)] = np.asarray(jnp.asarray(s))
    return masked_means(rows, np.array([len(s) for s in seqs], np.float32))
