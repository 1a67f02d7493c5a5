# expect: compile_budget
# Wrong: pads to each batch's own longest sequence, no buckets: every batch's longest length is new, so every
# batch compiles (30 > 8).
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
