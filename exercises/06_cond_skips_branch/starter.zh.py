import jax
import jax.numpy as jnp
from jax import lax

ROUNDS = 16


def simmer(x, w):
    """慢的一支：16 轮搅拌，每轮一次矩阵乘法。"""
    return lax.fori_loop(0, ROUNDS, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


def quick(x):
    """快的一支。"""
    return 0.5 * x


@jax.jit
def finish(x, w):
    lumpy = jnp.max(jnp.abs(x)) > 1.0
    # TODO：jnp.where 要先拿到两个结果才能做选择，所以每次调用都会运行 simmer，
    # 哪怕它的结果随后就被扔掉。
    return jnp.where(lumpy, simmer(x, w), quick(x))


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run cond_skips_branch`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    w = jnp.eye(128) * 0.5
    smooth = jnp.full((128, 32), 0.5)
    print(finish(smooth, w)[0, 0])
    print(finish(smooth * 4, w)[0, 0])
