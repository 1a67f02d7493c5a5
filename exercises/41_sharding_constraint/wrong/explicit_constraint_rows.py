# expect: runs
# Pads, then keeps the Auto-style constraints on a jax.make_mesh mesh with no mesh set: a spec naming an Explicit
# axis is refused (ValueError: ... can only refer to Auto axes).
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % mesh.size), (0, 0)))
    padded = jax.lax.with_sharding_constraint(padded, NamedSharding(mesh, P("rows", None)))
    norms = jnp.linalg.norm(padded, axis=1)
    return padded, jax.lax.with_sharding_constraint(norms, NamedSharding(mesh, P()))


def shard_table(table):
    return _load(table)
