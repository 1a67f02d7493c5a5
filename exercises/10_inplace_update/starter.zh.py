import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        # TODO：这里像对 NumPy 数组那样，直接往 s 里原地写入。
        s[items[j]] += deltas[j]
        return s

    return lax.fori_loop(0, items.shape[0], post_one, stock)
