# expect: table_split
# Pads the table but asks for both results whole on every device: nothing is split.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
whole = NamedSharding(mesh, P())


@partial(jax.jit, out_shardings=(whole, whole))
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    return padded, jnp.linalg.norm(padded, axis=1)


def shard_table(table):
    return _load(table)
