import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    # TODO：x[:n] 的长度取决于 n 的值，而在 jit 下 n 还没有值。
    return jnp.sum(x[:n])


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run static_shapes`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(16.0)
    print(sum_first_n(x, jnp.int32(3)))
    print(sum_first_n(x, jnp.int32(16)))
