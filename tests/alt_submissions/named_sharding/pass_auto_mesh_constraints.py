# expect: pass
# An Auto mesh and sharding constraints inside the jitted function, for the input and for both outputs.
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(AxisType.Auto,))


@jax.jit
def _normalize(x):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P("batch")))
    norms = jnp.linalg.norm(x, axis=1)
    y = x / norms[:, None]
    return (jax.lax.with_sharding_constraint(y, NamedSharding(mesh, P("batch"))),
            jax.lax.with_sharding_constraint(norms, NamedSharding(mesh, P())))


def normalize_rows(x):
    return _normalize(x)
