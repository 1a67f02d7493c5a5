import jax


# TODO：在这个普通的 @jax.jit 下，rows 和 x 一样被追踪，但 reshape 需要一个具体的行数。
@jax.jit
def reshape_rows(x, rows):
    return x.reshape((rows, -1))


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run static_argnums`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    x = jnp.arange(12.0)
    print(reshape_rows(x, 3).shape)
    print(reshape_rows(x, 4).shape)
