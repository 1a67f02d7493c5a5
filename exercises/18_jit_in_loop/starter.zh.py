import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train(w, batches, lr):
    for x, y in batches:
        # TODO：这一行每一步都会执行。每次得到的是同一个被 jit 的函数吗？
        step = jax.jit(lambda w, x, y: w - lr * jax.grad(loss)(w, x, y))
        w = step(w, x, y)
    return w
