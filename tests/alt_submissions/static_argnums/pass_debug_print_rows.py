# expect: pass
# rows static; a jax.debug.print of the reshaped first row is allowed.
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    out = x.reshape((rows, -1))
    jax.debug.print("first row {r}", r=out[0])
    return out
