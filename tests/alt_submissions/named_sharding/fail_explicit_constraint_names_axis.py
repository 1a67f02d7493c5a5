# expect: runs
# with_sharding_constraint naming the Explicit axis of make_mesh's default mesh, with no mesh set: ValueError
# ("can only refer to Auto axes of the mesh") while tracing.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@jax.jit
def _normalize(x):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P("rows")))
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
