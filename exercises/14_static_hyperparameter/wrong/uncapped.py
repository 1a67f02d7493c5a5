# expect: values
# Keeps lr traced but drops the cap to avoid the min(): a learning rate above 0.5 takes too big a step.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)
