# expect: pass
# A plain Python loop over the movements (unrolled while tracing), rebinding the array each time.
import jax


@jax.jit
def update_stock(stock, items, deltas):
    s = stock
    for i, d in zip(items, deltas):
        s = s.at[i].add(d)
    return s
