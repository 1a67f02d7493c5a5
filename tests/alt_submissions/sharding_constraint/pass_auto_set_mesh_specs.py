# expect: pass
# An Auto mesh set with jax.set_mesh, bare PartitionSpecs in the constraints, and the table padded first.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("rows",))


@jax.jit
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.lax.with_sharding_constraint(padded, P("rows"))
    return padded, jax.lax.with_sharding_constraint(jnp.linalg.norm(padded, axis=1), P())


def shard_table(table):
    with jax.set_mesh(mesh):
        return _load(table)
