# expect: in_jit
# The jitted step asks the host for the gradient through jax.pure_callback: x reaches jit, the matrix products do not.
import jax
import numpy as np


def _host_grad(w, x, y):
    w, x, y = (np.asarray(v, np.float32) for v in (w, x, y))
    return (2.0 / len(y) * x.T @ (x @ w - y)).astype(np.float32)


@jax.jit
def step(w, x, y, lr):
    grad = jax.pure_callback(_host_grad, jax.ShapeDtypeStruct(w.shape, w.dtype), w, x, y)
    return w - lr * grad


def train(w, batches, lr):
    for x, y in batches:
        w = step(w, x, y, lr)
    return w
