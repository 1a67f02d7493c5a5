import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        # One dtype for every source: a NumPy float32 scalar is a typed (strong) float32[] for jit, whatever lr was
        # (a Python float, a NumPy float64, a weak or strong JAX scalar), so every step has the same input types.
        w = sgd_step(w, g, np.float32(lr))
    return w
