# expect: pass
# Pads with NumPy, then lets jit place the input by rows and the outputs as asked.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
rows = NamedSharding(mesh, P("rows", None))


@partial(jax.jit, in_shardings=rows, out_shardings=(rows, NamedSharding(mesh, P())))
def _load(padded):
    return padded, jnp.linalg.norm(padded, axis=1)


def shard_table(table):
    return _load(np.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0))))
