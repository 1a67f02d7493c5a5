import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)  # float32[B, H@model]：每个设备计算 H 中属于自己的那几列
    # 每个设备用 H 中属于自己的那一段相乘，持有一个部分和。out_sharding=P() 说明总和放在哪里：
    # 在每个设备上完整保存。XLA 用一次 all-reduce 把部分和相加，两个权重都从不被收集起来。
    return jnp.dot(hidden, w_out, out_sharding=P())
