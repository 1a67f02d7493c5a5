# expect: pass
# A default mesh set with jax.set_mesh; jit takes bare PartitionSpecs, resolved against it.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

jax.set_mesh(jax.make_mesh((jax.device_count(),), ("rows",)))


@jax.jit(in_shardings=P("rows"), out_shardings=(P("rows"), P()))
def normalize_rows_jit(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return normalize_rows_jit(x)
