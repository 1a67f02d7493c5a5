# expect: runs
# A mesh of 4 devices written in: right on a 4-device machine; on a 6-device one the rows (a multiple of 6) cannot
# be cut into 4 equal pieces.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4,), ("rows",))
rows, whole = NamedSharding(mesh, P("rows")), NamedSharding(mesh, P())


@partial(jax.jit, in_shardings=rows, out_shardings=(rows, whole))
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
