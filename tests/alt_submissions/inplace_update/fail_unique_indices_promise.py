# expect: values
# .at[items].add with unique_indices=True while items repeat: the numbers add up on CPU, but the promise is broken
# and JAX leaves the output undefined; the statement forbids it.
import jax


@jax.jit
def update_stock(stock, items, deltas):
    return stock.at[items].add(deltas, unique_indices=True)
