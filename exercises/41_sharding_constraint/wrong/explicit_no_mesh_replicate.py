# expect: norms_whole
# Moves to jax.make_mesh (Explicit axes), places the padded table by rows, and keeps the constraint that should make
# the norms whole: with no mesh set, a P() constraint on an Explicit array is accepted and changes nothing.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _norms(table):
    return jax.lax.with_sharding_constraint(jnp.linalg.norm(table, axis=1), NamedSharding(mesh, P()))


def shard_table(table):
    padded = np.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.device_put(padded, NamedSharding(mesh, P("rows", None)))
    return padded, _norms(padded)
