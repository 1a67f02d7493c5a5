# expect: pass
# review: review.cost.work
# Heavy but right: every movement becomes a one-hot row over all items, and a matrix product at HIGHEST precision
# adds them up: a 24×n matrix is built where one scatter-add would do.
import jax
import jax.numpy as jnp


@jax.jit
def update_stock(stock, items, deltas):
    onehot = jax.nn.one_hot(items, stock.shape[0], dtype=stock.dtype)
    return stock + jnp.dot(deltas, onehot, precision=jax.lax.Precision.HIGHEST)
