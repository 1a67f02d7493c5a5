import jax
import jax.numpy as jnp


def mlp(params, x):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # TODO：这个 lambda 闭包住了 params，于是 jit 把每个权重都作为常量拷进编译好的程序；
    # 而每一组新权重都是一个新函数，又要从头编译一次。
    return jax.jit(lambda x: mlp(params, x))
