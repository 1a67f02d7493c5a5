# expect: pass
# Keeps the Auto mesh and its constraints, and pads first: with a length that divides, the constraint is honoured.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("rows",))


@jax.jit
def _load(table):
    table = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    table = jax.lax.with_sharding_constraint(table, NamedSharding(mesh, P("rows", None)))
    norms = jax.lax.with_sharding_constraint(jnp.sqrt(jnp.sum(table * table, axis=1)), NamedSharding(mesh, P()))
    return table, norms


def shard_table(table):
    return _load(table)
