from functools import partial

import jax
import jax.numpy as jnp

MAX_LR = 0.5


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# 把 lr 设为静态参数，是为了让下面 Python 的 min() 在追踪时能读到它的值。
# TODO：学习率调度每一步都会交给 sgd_step 一个新的学习率。
@partial(jax.jit, static_argnames="lr")
def sgd_step(w, x, y, lr):
    step = min(lr, MAX_LR)
    return w - step * jax.grad(loss)(w, x, y)
