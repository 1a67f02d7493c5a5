import jax
import jax.numpy as jnp

SCALE = 2.0  # 评分器在每次调用前都会修改它；scaled_relu 不能依赖它


@jax.jit
def scaled_relu(x, scale):
    # TODO: SCALE 只在 JAX 追踪 scaled_relu 时被读取一次，并被冻结进编译好的程序；
    # 参数 scale 被忽略了。
    return jnp.maximum(0, x) * SCALE


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run frozen_globals`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.linspace(-2.0, 2.0, 32)
    print(scaled_relu(x, 2.0)[-1])
    SCALE = 3.0
    print(scaled_relu(x, 3.0)[-1])
