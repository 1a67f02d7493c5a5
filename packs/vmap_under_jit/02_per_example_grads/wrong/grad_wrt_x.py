# expect: values
# in_axes is right, but argnums=1 differentiates with respect to x, which has w's shape too.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. Keep this function as it is.
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(loss, argnums=1), in_axes=(None, 0, 0))(w, xs, ys)
