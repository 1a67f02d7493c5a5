# expect: pass
# Explicit mesh (make_mesh's default): jax.reshard inside jit under the mesh context, for the input and the norms.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("r",))


@jax.jit
def _normalize(x):
    x = jax.reshard(x, P("r"))
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], jax.reshard(norms, P())


def normalize_rows(x):
    with jax.set_mesh(mesh):
        return _normalize(x)
