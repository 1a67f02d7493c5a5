import jax
import numpy as np


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        # 所有来源都用同一个 dtype：对 jit 来说，NumPy 的 float32 标量是有类型的（强类型）float32[]，
        # 不管 lr 原来是什么（Python float、NumPy float64、弱类型或强类型的 JAX 标量），所以每一步的输入类型都相同。
        w = sgd_step(w, g, np.float32(lr))
    return w
