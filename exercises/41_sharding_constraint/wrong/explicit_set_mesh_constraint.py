# expect: runs
# The same constraint inside jax.set_mesh: on an Explicit mesh that is set, with_sharding_constraint is an
# assertion, and the norms are split by rows, not replicated.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _norms(table):
    return jax.lax.with_sharding_constraint(jnp.linalg.norm(table, axis=1), P())


def shard_table(table):
    padded = np.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.device_put(padded, NamedSharding(mesh, P("rows", None)))
    with jax.set_mesh(mesh):
        return padded, _norms(padded)
