# expect: runs
# ys is left unmapped: each example sees every label, and its loss is no longer one number.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. Keep this function as it is.
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, None))(w, xs, ys)
