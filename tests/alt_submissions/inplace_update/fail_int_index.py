# expect: runs
# Converts each item number to a Python int: inside jit it is a tracer with no value yet.
import jax


@jax.jit
def update_stock(stock, items, deltas):
    s = stock
    for j in range(items.shape[0]):
        s = s.at[int(items[j])].add(deltas[j])
    return s
