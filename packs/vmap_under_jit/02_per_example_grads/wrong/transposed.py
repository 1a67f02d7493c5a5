# expect: shape
# out_axes=1 stacks the gradients as columns: a [D, N] result instead of [N, D].
import jax
import jax.numpy as jnp


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. Keep this function as it is.
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0), out_axes=1)(w, xs, ys)
