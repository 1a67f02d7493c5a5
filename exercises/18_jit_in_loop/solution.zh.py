import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# 只在导入时创建一次：每次运行的每一步都调用同一个函数，所以它的缓存是共用的。
# lr 是普通的（被追踪的）参数：新的学习率只是新的值，不是新的程序。
@jax.jit
def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y, lr)
    return w
