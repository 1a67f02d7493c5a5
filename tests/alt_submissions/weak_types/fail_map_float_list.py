# expect: one_compile
# One dtype for every learning rate, but the result is list(map(float, w)): iterating over a jax.Array compiles an
# unstack program, a second compile.
import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, np.float32(lr))
    return list(map(float, w))
