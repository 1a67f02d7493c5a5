# expect: compile_budget
# Pads to 64, but marks the length static to slice x[:n]: every distinct length is a new compile again.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def mean_of_prefix(x, n):
    return jnp.mean(x[:n])


def batch_means(seqs):
    out = []
    for s in seqs:
        x = np.zeros(64, np.float32)
        x[: len(s)] = s
        out.append(mean_of_prefix(x, len(s)))
    return out
