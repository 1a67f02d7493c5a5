# expect: runs
# Reshards to NamedShardings inside jit, but the table arrives as NumPy and no mesh is set: jit cannot tell which
# devices the program runs on.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.sharding.reshard(padded, NamedSharding(mesh, P("rows", None)))
    return padded, jax.sharding.reshard(jnp.linalg.norm(padded, axis=1), NamedSharding(mesh, P()))


def shard_table(table):
    return _load(table)
