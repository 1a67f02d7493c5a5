# expect: one_compile
# Right steps, but the weights are returned as a list built by iterating over the jax.Array: that compiles an
# unstack program outside the step, a second compile the statement counts.
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
    return [float(v) for v in w]
