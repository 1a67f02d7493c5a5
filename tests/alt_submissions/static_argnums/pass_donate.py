# expect: pass
# Right: static rows plus donate_argnums for x.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,), inline=False)
def reshape_rows(x, rows):
    out = jnp.zeros((rows, 12 // rows), x.dtype)
    return out + x.reshape(rows, -1)
