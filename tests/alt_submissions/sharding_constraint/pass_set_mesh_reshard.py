# expect: pass
# Sets the mesh around the call, and says both layouts with reshard and bare PartitionSpecs inside jit.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _load(table):
    n = jax.sharding.get_abstract_mesh().size
    padded = jax.sharding.reshard(jnp.pad(table, ((0, -table.shape[0] % n), (0, 0))), P("rows", None))
    return padded, jax.sharding.reshard(jnp.linalg.norm(padded, axis=1), P())


def shard_table(table):
    with jax.set_mesh(mesh):
        return _load(table)
