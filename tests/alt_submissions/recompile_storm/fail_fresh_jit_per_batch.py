# expect: compile_budget
# Wrong: pads to 64 and masks correctly, but makes a fresh jax.jit(lambda ...) in every batch: one compile per batch.
import jax
import jax.numpy as jnp
import numpy as np


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for row, s in zip(padded, seqs):
        row[: len(s)] = s
    n = np.array([len(s) for s in seqs], np.float32)
    f = jax.jit(lambda x, n: jnp.sum(jnp.where(jnp.arange(64) < n[:, None], x, 0.0), axis=1) / n)
    return f(padded, n)
