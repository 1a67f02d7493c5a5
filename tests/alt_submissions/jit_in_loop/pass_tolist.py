# expect: pass
# Returns a list of numbers made with tolist(), which compiles nothing.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y, lr)
    return w.tolist()
