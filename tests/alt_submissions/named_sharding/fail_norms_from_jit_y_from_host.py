# expect: in_jit
# The norms come from the jitted function, but y is divided on the host and placed with device_put.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
by_rows = NamedSharding(mesh, P("rows"))
everywhere = NamedSharding(mesh, P())


@partial(jax.jit, out_shardings=everywhere)
def _norms(x):
    return jnp.linalg.norm(x, axis=1)


def normalize_rows(x):
    norms = _norms(x)
    y = x / np.linalg.norm(x, axis=1, keepdims=True).astype(np.float32)
    return jax.device_put(y, by_rows), norms
