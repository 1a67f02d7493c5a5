# expect: values
# Calls .at[].add but throws its result away: the carry passed on is the old, unchanged array.
import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        s.at[items[j]].add(deltas[j])
        return s

    return lax.fori_loop(0, items.shape[0], post_one, stock)
