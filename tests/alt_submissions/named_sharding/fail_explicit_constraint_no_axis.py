# expect: replicated
# On make_mesh's default (Explicit) mesh with no mesh set, a constraint that names no axis is accepted and does
# nothing: the norms keep the row layout jit gave them, and nothing gathers them.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _normalize(x):
    x = jax.reshard(x, NamedSharding(mesh, P("rows")))
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], jax.lax.with_sharding_constraint(norms, NamedSharding(mesh, P()))


def normalize_rows(x):
    return _normalize(x)
