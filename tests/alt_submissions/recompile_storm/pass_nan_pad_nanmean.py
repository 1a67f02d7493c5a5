# expect: pass
# Pads with NaN on the host and lets jnp.nanmean skip the padding; the array goes in via jnp.asarray (one shape).
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def nan_means(x):
    return jnp.nanmean(x, axis=1)


def batch_means(seqs):
    x = np.full((16, 64), np.nan, dtype=np.float32)
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
    return nan_means(jnp.asarray(x))
