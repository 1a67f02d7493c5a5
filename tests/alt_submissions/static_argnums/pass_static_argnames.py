# expect: pass
from functools import partial

import jax


@partial(jax.jit, static_argnames="rows")
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
