# expect: pass
# Concatenate everything into one flat buffer of fixed size 16*64 with segment ids; jax.ops.segment_sum under jit.
import jax
import jax.numpy as jnp
import numpy as np

CAPACITY = 16 * 64


@jax.jit
def segment_means(flat, ids):
    sums = jax.ops.segment_sum(flat, ids, num_segments=17)  # segment 16 collects the padding
    counts = jax.ops.segment_sum(jnp.ones_like(flat), ids, num_segments=17)
    return (sums / counts)[:16]


def batch_means(seqs):
    flat = np.zeros(CAPACITY, np.float32)
    ids = np.full(CAPACITY, 16, np.int32)
    at = 0
    for k, s in enumerate(seqs):
        flat[at : at + len(s)] = s
        ids[at : at + len(s)] = k
        at += len(s)
    return segment_means(flat, ids)
