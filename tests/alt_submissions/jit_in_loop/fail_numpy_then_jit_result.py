# expect: in_jit
# Trains with NumPy and passes only the final weights through a jitted function at the end.
import jax
import numpy as np


@jax.jit
def finish(w):
    return w * 1.0


def train(w, batches, lr):
    w = np.array(w, np.float32)
    for x, y in batches:
        w -= lr * (2.0 / len(y)) * x.T @ (x @ w - y)
    return finish(w)
