# expect: pass
# A module-level jitted step that also returns the loss; the loop logs it as a Python float (a host copy, no compile).
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def step(w, x, y, lr):
    value, grad = jax.value_and_grad(loss)(w, x, y)
    return w - lr * grad, value


def train(w, batches, lr):
    history = []
    for x, y in batches:
        w, value = step(w, x, y, lr)
        history.append(float(value))
    return w
