# expect: pass
# One dtype for every learning rate; the result as a list of numbers through NumPy, which compiles nothing.
import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, np.float32(lr))
    return np.asarray(w).tolist()
