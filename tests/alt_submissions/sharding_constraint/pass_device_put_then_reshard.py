# expect: pass
# Pads on the host, places the rows with device_put on an Explicit mesh, and reshards the norms inside jit.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _norms(table):
    return jax.sharding.reshard(jnp.linalg.norm(table, axis=1), NamedSharding(mesh, P()))


def shard_table(table):
    padded = np.concatenate([table, np.zeros((-len(table) % mesh.size, table.shape[1]), table.dtype)])
    padded = jax.device_put(padded, NamedSharding(mesh, P("rows", None)))
    return padded, _norms(padded)
