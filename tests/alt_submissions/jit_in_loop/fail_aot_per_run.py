# expect: one_compile
# Compiles the step ahead of time at the start of every call of train: each run pays a compile of its own.
import jax
import numpy as np


def step(w, x, y, lr):
    return w - lr * (2.0 / y.shape[0]) * (x.T @ (x @ w - y))


def train(w, batches, lr):
    x0, y0 = batches[0]
    compiled = jax.jit(step).lower(w, x0, y0, np.float32(lr)).compile()
    for x, y in batches:
        w = compiled(w, x, y, np.float32(lr))
    return w
