from functools import partial

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w  # float32[8, 4] 权重
        self.b = b  # 一个 Python float：偏置

    # jit 没法追踪 self（它不是数组），所以把 self 标成了静态参数。
    # TODO：对一个静态的 self，jit 记住了什么？它又是在什么时候读取 self.w 和 self.b 的？
    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
