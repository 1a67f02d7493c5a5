# expect: norms_whole
# Pads and splits the table on the Auto mesh, but drops the constraint on the norms: XLA propagates the rows' split
# to them, so each device holds only its own rows' lengths.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("rows",))


@jax.jit
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.lax.with_sharding_constraint(padded, NamedSharding(mesh, P("rows", None)))
    return padded, jnp.linalg.norm(padded, axis=1)


def shard_table(table):
    return _load(table)
