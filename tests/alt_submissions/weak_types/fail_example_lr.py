# expect: values
# One type, one compile: but the learning rate is the statement's example, 0.1, for every step.
import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g in grads:
        w = sgd_step(w, g, np.float32(0.1))
    return w
