# expect: values
# One compile, but the learning rate of the statement's example (0.1) is written into the step.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y):
    return w - 0.1 * jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y)
    return w
