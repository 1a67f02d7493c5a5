# expect: pass
# One preallocated 64-slot buffer, refilled for every sequence; a jitted masked mean per sequence (one shape).
import jax
import jax.numpy as jnp
import numpy as np

BUF = np.zeros(64, np.float32)


@jax.jit
def prefix_mean(buf, n):
    return jnp.sum(jnp.where(jnp.arange(64) < n, buf, 0.0)) / n


def batch_means(seqs):
    out = []
    for s in seqs:
        BUF[:] = 0.0
        BUF[: len(s)] = s
        out.append(float(prefix_mean(BUF, np.float32(len(s)))))
    return out
