import jax


@jax.jit
def lookup_prices(prices, dishes):
    # TODO：对数组之外的编号，NumPy 会抛出 IndexError。JAX 拿到
    # 第 n 号、第 n + 5 号或第 -1 号菜，又会怎么做？
    return prices[dishes]


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run out_of_bounds`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    prices = jnp.arange(1.0, 9.0)
    dishes = jnp.array([0, 7, 8, -1, 1000] + [2] * 11, dtype=jnp.int32)
    print(lookup_prices(prices, dishes))
