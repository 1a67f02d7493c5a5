# expect: pass
# A one-hot matrix product: each movement lands on its item's column.
import jax
import jax.numpy as jnp


@jax.jit
def update_stock(stock, items, deltas):
    hot = jax.nn.one_hot(items, stock.shape[0], dtype=stock.dtype)
    return stock + deltas @ hot
