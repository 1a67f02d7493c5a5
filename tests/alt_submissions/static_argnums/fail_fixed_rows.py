# expect: values
# Static, but ignores rows: always 3 rows.
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    return x.reshape((3, -1))
