# expect: pass
# Right: a warm-up call at import; the grader clears caches before batch 1, so the graded calls compile once.
import numpy as np
import jax
import jax.numpy as jnp


@jax.jit
def _means(padded, lengths):
    mask = jnp.arange(64)[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(mask, padded, 0), axis=1) / lengths


_means(np.zeros((16, 64), np.float32), np.ones(16, np.float32))  # warm-up


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    return _means(padded, np.array([len(s) for s in seqs], np.float32))
