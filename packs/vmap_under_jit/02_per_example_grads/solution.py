import jax
import jax.numpy as jnp


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. The gradients are the gradients of this loss.
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    # in_axes: w is shared by every example (None), xs and ys are split along axis 0.
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
