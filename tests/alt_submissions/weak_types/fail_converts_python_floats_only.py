# expect: one_compile
# Converts the Python floats to np.float32 but leaves JAX scalars alone: a JAX scalar made without a dtype is
# weakly typed too.
import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        if isinstance(lr, float):
            lr = np.float32(lr)
        w = sgd_step(w, g, lr)
    return w
