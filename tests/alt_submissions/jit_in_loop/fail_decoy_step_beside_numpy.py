# expect: in_jit
# A real jitted step runs on every batch, but its result is dropped: the weights returned come from NumPy.
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    host = np.asarray(w, np.float64)
    for x, y in batches:
        step(w, x, y, lr)
        host = host - lr * 2.0 / len(y) * x.T @ (x @ host - y)
    return host.astype(np.float32)
