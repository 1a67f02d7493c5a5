# expect: pass
# Still one jitted call per sequence, but each padded to a power-of-two bucket: at most 7 shapes (1..64).
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=())
def padded_mean(x, n):
    return jnp.sum(jnp.where(jnp.arange(x.size) < n, x, 0.0)) / n


def batch_means(seqs):
    out = []
    for s in seqs:
        size = 1 << (len(s) - 1).bit_length()
        x = np.zeros(size, np.float32)
        x[: len(s)] = s
        out.append(padded_mean(x, np.int32(len(s))))
    return out
