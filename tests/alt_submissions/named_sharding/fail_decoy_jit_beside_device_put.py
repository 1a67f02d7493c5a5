# expect: in_jit
# The right jitted function runs on x, but the results returned are computed with NumPy and placed on the devices.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
by_rows = NamedSharding(mesh, P("rows"))
everywhere = NamedSharding(mesh, P())


@partial(jax.jit, in_shardings=by_rows, out_shardings=(by_rows, everywhere))
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    _normalize(x)
    norms = np.linalg.norm(x, axis=1).astype(np.float32)
    return jax.device_put(x / norms[:, None], by_rows), jax.device_put(norms, everywhere)
