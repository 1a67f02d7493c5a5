# expect: pass
# Ahead-of-time compiles at import, one per multiple-of-8 width (8 programs); each batch uses the smallest that fits.
import jax
import jax.numpy as jnp
import numpy as np


def row_sums_over_lengths(x, n):
    keep = jnp.arange(x.shape[1]) < n[:, None]
    return (x * keep).sum(axis=1) / n


PROGRAMS = {
    w: jax.jit(row_sums_over_lengths)
    .lower(jax.ShapeDtypeStruct((16, w), jnp.float32), jax.ShapeDtypeStruct((16,), jnp.float32))
    .compile()
    for w in range(8, 65, 8)
}


def batch_means(seqs):
    n = np.array([len(s) for s in seqs], np.float32)
    w = -(-int(n.max()) // 8) * 8
    x = np.zeros((16, w), np.float32)
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
    return PROGRAMS[w](x, n)
