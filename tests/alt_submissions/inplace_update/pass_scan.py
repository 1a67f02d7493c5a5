# expect: pass
# A scan over the movements, carrying the new stock from step to step.
import jax
from jax import lax


def update_stock(stock, items, deltas):
    def step(s, move):
        i, d = move
        return s.at[i].add(d), None

    final, _ = lax.scan(step, stock, (items, deltas))
    return final
