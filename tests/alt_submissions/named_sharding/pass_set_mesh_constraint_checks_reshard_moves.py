# expect: pass
# Under jax.set_mesh, with_sharding_constraint checks a layout the value already has (y, split by rows like x), and
# jax.reshard moves the norms to every device.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

jax.set_mesh(jax.make_mesh((jax.device_count(),), ("rows",)))


@jax.jit
def _normalize(x):
    x = jax.reshard(x, P("rows"))
    norms = jnp.linalg.norm(x, axis=1)
    y = jax.lax.with_sharding_constraint(x / norms[:, None], P("rows"))
    return y, jax.reshard(norms, P())


def normalize_rows(x):
    return _normalize(x)
