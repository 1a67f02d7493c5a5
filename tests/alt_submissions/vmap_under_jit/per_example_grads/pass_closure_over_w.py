# expect: pass
# A closure over w: vmap sees only xs and ys.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return (jnp.dot(w, x) - y) ** 2


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.vmap(lambda x, y: jax.grad(loss)(w, x, y))(xs, ys)
