import jax
import jax.numpy as jnp

MAX_LR = 0.5


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    # lr 保持被追踪：一个程序应付所有学习率，上限是程序里的一个操作。
    step = jnp.minimum(lr, MAX_LR)
    return w - step * jax.grad(loss)(w, x, y)
