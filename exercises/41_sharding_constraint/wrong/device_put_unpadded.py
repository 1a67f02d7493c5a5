# expect: runs
# Places the table by rows with device_put on an Explicit mesh, without padding: where a constraint on Auto axes
# stayed silent, this says that an odd number of rows does not divide.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))
_norms = jax.jit(lambda t: jnp.linalg.norm(t, axis=1), out_shardings=NamedSharding(mesh, P()))


def shard_table(table):
    table = jax.device_put(table, NamedSharding(mesh, P("rows", None)))
    return table, _norms(table)
