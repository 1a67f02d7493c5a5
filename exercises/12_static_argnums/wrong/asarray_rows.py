# expect: runs
# rows is static, but jnp.asarray(rows) makes it a JAX array again, and inside jit that array is traced.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    rows = jnp.asarray(rows)
    return x.reshape((rows, -1))
