# expect: pass
# review: review.cost.size
# Right, the long way round: the loss is a Python loop over the 16 examples of a batch, unrolled into the program
# at trace time, and differentiated example by example, where one vectorised mean would do.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    total = 0.0
    for i in range(x.shape[0]):
        total = total + (x[i] @ w - y[i]) ** 2
    return total / x.shape[0]


@jax.jit
def sgd_step(w, x, y, lr):
    _, grad = jax.value_and_grad(loss)(w, x, y)
    return w - lr * grad


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y, lr)
    return w
