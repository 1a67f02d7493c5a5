import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    # TODO：x[x > 0] 的元素个数等于 x 里正数的个数：jit 追踪时无法知道这个数，
    # 所以没法给结果定一个形状。
    good = x[x > 0]
    count = good.shape[0]
    kept = jnp.pad(good, (0, x.shape[0] - count))
    mean = jnp.mean(good) if count else 0.0
    return kept, count, mean


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run boolean_mask`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.array([1.0, -2.0, 0.0, 3.0] * 4)
    print(pick_good(x))
