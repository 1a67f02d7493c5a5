import jax


@jax.jit
def lookup_prices(prices, dishes):
    # TODO：对数组之外的编号，NumPy 会抛出 IndexError。JAX 拿到
    # 第 n 号、第 n + 5 号或第 -1 号菜，又会怎么做？
    return prices[dishes]
