# expect: compile_budget
# Wrong: buckets the widths (16/32/64) but groups a varying number of rows per bucket, so the row count makes
# new shapes; the message must name the row count, not the sequence lengths.
import numpy as np
import jax
import jax.numpy as jnp


@jax.jit
def _means(rows, lengths):
    mask = jnp.arange(rows.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(mask, rows, 0.0), axis=1) / lengths


def batch_means(seqs):
    out = [None] * len(seqs)
    for w in (16, 32, 64):
        idx = [i for i, s in enumerate(seqs) if (w // 2 if w > 16 else 0) < len(s) <= w]
        if not idx:
            continue
        rows = np.zeros((len(idx), w), np.float32)  # the group size varies: a new shape
        for r, i in enumerate(idx):
            rows[r, : len(seqs[i])] = seqs[i]
        res = _means(rows, np.array([len(seqs[i]) for i in idx], np.float32))
        for r, i in enumerate(idx):
            out[i] = res[r]
    return out
