# expect: one_compile
# A jitted loss, differentiated eagerly in the loop, and an eager update: jax.grad of a jitted function compiles its
# forward and its backward pass as two programs, and the update's multiply and subtract compile too.
import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train(w, batches, lr):
    for x, y in batches:
        w = w - lr * jax.grad(loss)(w, x, y)
    return w
