# expect: error:import
# Counts arguments from 1: static_argnums=2 does not exist for a two-argument function.
from functools import partial

import jax


@partial(jax.jit, static_argnums=2)
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
