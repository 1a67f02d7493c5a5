# expect: values
# The right shape, but every row is the batch's mean gradient, repeated.
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. Keep this function as it is.
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    def batch_loss(w):
        return jnp.mean(jax.vmap(loss, in_axes=(None, 0, 0))(w, xs, ys))

    return jnp.broadcast_to(jax.grad(batch_loss)(w), xs.shape)
