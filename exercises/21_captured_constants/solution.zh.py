import functools

import jax
import jax.numpy as jnp


@jax.jit
def mlp(params, x):
    # params 是参数：它的数组是编译好的程序的输入，而不是程序里的常量。
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # 所有权重共用一个被 jit 的函数；预测器只记住该传哪一组权重。
    return functools.partial(mlp, params)
