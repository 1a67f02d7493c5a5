# expect: in_jit
# The jitted step runs with a learning rate of one type, but its result is thrown away: run returns a NumPy result.
import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    host = np.asarray(w, np.float64)
    for g, lr in zip(grads, lrs):
        sgd_step(w, g, np.float32(lr))
        host = host - float(lr) * g
    return host.astype(np.float32)
