# expect: values
# Uses the .at[] family, but .set writes each amount over the stock instead of adding it.
import jax
from jax import lax


@jax.jit
def update_stock(stock, items, deltas):
    def post_one(j, s):
        return s.at[items[j]].set(deltas[j])

    return lax.fori_loop(0, items.shape[0], post_one, stock)
