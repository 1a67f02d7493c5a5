# expect: pass
# unique_indices=True on one position at a time is a promise kept: a single index never repeats.
import jax


def update_stock(stock, items, deltas):
    def post(j, s):
        return s.at[items[j]].add(deltas[j], unique_indices=True)

    return jax.lax.fori_loop(0, items.shape[0], post, stock)
