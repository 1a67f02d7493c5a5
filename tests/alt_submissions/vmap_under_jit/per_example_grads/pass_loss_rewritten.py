# expect: pass
# loss rewritten as an equivalent sum of products: only the result is graded.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    r = jnp.sum(w * x) - y
    return r * r


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
