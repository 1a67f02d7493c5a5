import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    # TODO: 数值是对的，零向量也对，但 jax.grad 在零向量处给出 NaN：
    # where 在那里选了 0.0，可 sqrt(sq) 仍然在 sq = 0 处被计算，而它在那里的导数是 inf。
    return jnp.where(sq > 0, jnp.sqrt(sq), 0.0)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run where_nan_gradient`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    v = jnp.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]])
    print(lengths(v))
    print(jax.grad(lambda v: lengths(v).sum())(v))
