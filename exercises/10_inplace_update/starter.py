import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        # TODO: this writes into s in place, as you would with a NumPy array.
        s[items[j]] += deltas[j]
        return s

    return lax.fori_loop(0, items.shape[0], post_one, stock)
