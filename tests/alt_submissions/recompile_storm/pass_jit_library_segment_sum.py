# expect: pass
# jax.jit applied straight to a JAX library function (jax.ops.segment_sum), then sums / counts on the host.
import jax
import numpy as np

segment_sum = jax.jit(jax.ops.segment_sum, static_argnames=("num_segments",))


def batch_means(seqs):
    flat = np.zeros(1024, np.float32)
    ids = np.full(1024, 16, np.int32)
    start = 0
    for k, s in enumerate(seqs):
        flat[start : start + len(s)] = s
        ids[start : start + len(s)] = k
        start += len(s)
    sums = np.asarray(segment_sum(flat, ids, num_segments=17))[:16]
    counts = np.array([len(s) for s in seqs], np.float32)
    return sums / counts
