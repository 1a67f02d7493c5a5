# expect: pass
# Every learning rate becomes a 0-d NumPy float32 array on the host (no jax.numpy outside jit), one input type.
import jax
import numpy as np


def update(w, g, lr):
    return w + (-lr) * g


step = jax.jit(update)


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = step(w, g, np.asarray(lr, dtype=np.float32))
    return w
