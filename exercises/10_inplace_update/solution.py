import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        # .at[...].add(...) returns a new array with the change; the loop carries that new array on.
        return s.at[items[j]].add(deltas[j])

    return lax.fori_loop(0, items.shape[0], post_one, stock)
