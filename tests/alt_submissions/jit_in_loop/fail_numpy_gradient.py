# expect: in_jit
# Writes the gradient by hand in NumPy: no compiles at all, and no jit either.
import numpy as np


def train(w, batches, lr):
    w = np.asarray(w, np.float64)
    for x, y in batches:
        w = w - lr * (2.0 / len(y)) * x.T @ (x @ w - y)
    return w.astype(np.float32)
