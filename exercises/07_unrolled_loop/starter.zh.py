from functools import partial

import jax
import jax.numpy as jnp

DT = 0.05


def step(x, v):
    """一个带阻尼、越拉越硬的弹簧走一步：位置 x，速度 v。"""
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnames="steps")
def simulate(x, steps):
    v = jnp.zeros_like(x)
    # TODO：这个循环在 jit 追踪 simulate 时于 Python 中运行，所以每走一步，程序里就多一份
    # step 的副本：200 步，就要编译 200 份。
    for _ in range(steps):
        x, v = step(x, v)
    return x


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run unrolled_loop`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.ones(8)
    print(simulate(x, 1))
    print(simulate(x, 20))
