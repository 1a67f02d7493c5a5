# expect: replicated
# One out_shardings for everything: the rows layout, applied to the norms too.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
by_rows = NamedSharding(mesh, P("rows"))


@partial(jax.jit, in_shardings=by_rows, out_shardings=by_rows)
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
