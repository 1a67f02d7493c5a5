import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        # .at[...].add(...) 返回一个带有这次改动的新数组；循环把这个新数组作为循环状态往下传。
        return s.at[items[j]].add(deltas[j])

    return lax.fori_loop(0, items.shape[0], post_one, stock)
