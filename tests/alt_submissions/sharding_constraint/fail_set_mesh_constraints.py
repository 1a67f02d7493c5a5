# expect: runs
# Pads, sets the Explicit mesh, and keeps with_sharding_constraint for both layouts: inside jax.set_mesh it only
# asserts, and the padded table is not split yet.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.lax.with_sharding_constraint(padded, P("rows", None))
    return padded, jax.lax.with_sharding_constraint(jnp.linalg.norm(padded, axis=1), P())


def shard_table(table):
    with jax.set_mesh(mesh):
        return _load(table)
