# expect: one_compile
# Makes a new step function and compiles it ahead of time at the start of every call of train: each run pays a
# compile of its own. (A new lambda each run: JAX 0.12 reuses an ahead-of-time compile of the same function, so
# jax.jit(step).lower(...).compile() per run compiles once there, and that is not this mistake.)
import jax
import numpy as np


def step(w, x, y, lr):
    return w - lr * (2.0 / y.shape[0]) * (x.T @ (x @ w - y))


def train(w, batches, lr):
    x0, y0 = batches[0]
    compiled = jax.jit(lambda w, x, y, lr: step(w, x, y, lr)).lower(w, x0, y0, np.float32(lr)).compile()
    for x, y in batches:
        w = compiled(w, x, y, np.float32(lr))
    return w
