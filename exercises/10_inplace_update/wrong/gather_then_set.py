# expect: values
# Vectorized, but reads stock[items] + deltas and writes it back with .set: an item that moves
# three times keeps only one of its movements.
import jax


@jax.jit
def update_stock(stock, items, deltas):
    return stock.at[items].set(stock[items] + deltas)
