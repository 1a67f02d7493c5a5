# expect: keeps_input
# Donates stock by name to save a copy; the caller's array is deleted.
import jax
from jax import lax


def _update(stock, items, deltas):
    return lax.fori_loop(0, items.shape[0], lambda j, s: s.at[items[j]].add(deltas[j]), stock)


update_stock = jax.jit(_update, donate_argnames="stock")
