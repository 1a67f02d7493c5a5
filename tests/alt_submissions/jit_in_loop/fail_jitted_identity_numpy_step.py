# expect: in_jit
# Every batch goes through a jitted function, which only passes x on (x + 0.0); the step itself is NumPy.
import jax
import numpy as np


@jax.jit
def through(x):
    return x + 0.0


def train(w, batches, lr):
    w = np.asarray(w, np.float64)
    for x, y in batches:
        x = np.asarray(through(x), np.float64)
        w = w - lr * 2.0 / len(y) * x.T @ (x @ w - y)
    return w.astype(np.float32)
