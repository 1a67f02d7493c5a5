# expect: values
# Pads to one fixed width and compiles once, but jnp.mean averages the padding zeros too:
# a sequence of length 10 is summed and divided by 64.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def row_means(padded):
    return jnp.mean(padded, axis=1)


def batch_means(seqs):
    padded = np.zeros((len(seqs), 64), dtype=np.float32)
    for row, s in zip(padded, seqs):
        row[: len(s)] = s
    return row_means(padded)
