import jax
import jax.numpy as jnp

SCALE = 2.0  # 评分器每次调用前都会改它；scaled_relu 不读它（删掉它也可以）


@jax.jit
def scaled_relu(x, scale):
    # scale 是参数，所以会被追踪：换一个新值会复用编译好的程序，而不是被固化进程序。
    return jnp.maximum(0, x) * scale
