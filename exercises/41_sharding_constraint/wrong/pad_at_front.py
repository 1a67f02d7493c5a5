# expect: values
# The layouts are right, but the zero rows go in front of the table: every word's row moves down.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@partial(jax.jit, out_shardings=(NamedSharding(mesh, P("rows", None)), NamedSharding(mesh, P())))
def _load(table):
    padded = jnp.pad(table, ((-table.shape[0] % mesh.size, 0), (0, 0)))
    return padded, jnp.linalg.norm(padded, axis=1)


def shard_table(table):
    return _load(table)
