# expect: pass
# Right: lax.scan over padded rows with a length per row.
import numpy as np
import jax
import jax.numpy as jnp


@jax.jit
def _means(padded, lengths):
    def one(carry, row_len):
        row, n = row_len
        total = jnp.sum(jnp.where(jnp.arange(64) < n, row, 0.0))
        return carry, total / n

    _, out = jax.lax.scan(one, None, (padded, lengths))
    return out


def batch_means(seqs):
    padded = np.stack([np.pad(np.asarray(s, np.float32), (0, 64 - len(s))) for s in seqs])
    lengths = np.asarray([len(s) for s in seqs], np.float32)
    return _means(padded, lengths)
