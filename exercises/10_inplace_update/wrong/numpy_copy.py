# expect: runs
# Copies the stock into a NumPy array to write into it: inside jit the stock is a tracer, which NumPy cannot read.
import jax
import numpy as np


@jax.jit
def update_stock(stock, items, deltas):
    s = np.array(stock)
    for j in range(items.shape[0]):
        s[items[j]] += deltas[j]
    return s
