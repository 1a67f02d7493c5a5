# expect: values
# Builds the new stock with jnp.where per movement but compares against the ORIGINAL stock each time,
# so a repeated item keeps only its last movement.
import jax
import jax.numpy as jnp


@jax.jit
def update_stock(stock, items, deltas):
    positions = jnp.arange(stock.shape[0])
    s = stock
    for j in range(items.shape[0]):
        s = jnp.where(positions == items[j], stock[items[j]] + deltas[j], s)
    return s
