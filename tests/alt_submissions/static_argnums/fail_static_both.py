# Marks both arguments static: x is an array and cannot be hashed.
from functools import partial

import jax


@partial(jax.jit, static_argnums=(0, 1))
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
