# expect: reaches_jit
# Wrong: the padded block goes into jit, but only for an isfinite check; the means come from NumPy and are
# passed straight through. Shifting the data leaves the output where it was.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def checked(padded, means):
    ok = jnp.all(jnp.isfinite(padded))
    return jnp.where(ok, means, jnp.nan)


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for row, s in zip(padded, seqs):
        row[: len(s)] = s
    means = np.array([s.mean() for s in seqs], np.float32)
    return checked(padded, means)
