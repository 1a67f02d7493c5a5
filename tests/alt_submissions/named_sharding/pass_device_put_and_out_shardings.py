# expect: pass
# Places x by rows with device_put before the call; out_shardings only (the input layout comes from the array).
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((jax.device_count(),), ("d",))
ROWS = NamedSharding(MESH, P("d", None))
ALL = NamedSharding(MESH, P())


def _f(x):
    n = jnp.sqrt(jnp.sum(x * x, axis=1))
    return x / n[:, None], n


_f = jax.jit(_f, out_shardings=(ROWS, ALL))


def normalize_rows(x):
    return _f(jax.device_put(x, ROWS))
