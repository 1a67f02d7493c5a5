# expect: keeps_input
# "Make it really in place": donating stock lets XLA reuse its buffer, and deletes the caller's array.
from functools import partial

import jax


@partial(jax.jit, donate_argnums=0)
def update_stock(stock, items, deltas):
    return stock.at[items].add(deltas)
