# expect: reaches_jit
# Wrong: pads on the host and passes the batch through an identity jit, then averages with NumPy; the jitted
# call returns as many numbers as it gets, so reaches_jit must fail.
import numpy as np
import jax

_touch = jax.jit(lambda a: a)


def batch_means(seqs):
    padded = np.zeros((16, 64), np.float32)
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    _touch(padded)  # "reaches jit"
    return [float(np.mean(s)) for s in seqs]
