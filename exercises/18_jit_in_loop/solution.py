import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# Made once, at import: every step of every run calls this same function, so its cache is shared.
# lr is an ordinary (traced) argument: a new learning rate is a new value, not a new program.
@jax.jit
def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y, lr)
    return w
