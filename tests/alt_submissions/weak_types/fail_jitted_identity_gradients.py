# expect: in_jit
# Each gradient goes through a jitted function that returns it unchanged; the update itself is NumPy.
import jax
import numpy as np


@jax.jit
def through(g):
    return g * 1.0


def run(w, grads, lrs):
    w = np.asarray(w, np.float64)
    for g, lr in zip(grads, lrs):
        w = w - float(lr) * np.asarray(through(g), np.float64)
    return w.astype(np.float32)
