from functools import partial

import jax
import jax.numpy as jnp


# windows 决定输出的形状，所以它是静态参数。
# TODO：调用方传入的 windows 是一个列表。
@partial(jax.jit, static_argnames="windows")
def pyramid_pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run unhashable_static`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(24.0)
    print(pyramid_pool(x, (12, 24)))
    print(pyramid_pool(x, [12, 24]))
