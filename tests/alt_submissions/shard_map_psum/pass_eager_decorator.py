# expect: pass
# shard_map as a decorator, called without jit; the padded array is placed on the mesh first.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((jax.device_count(),), ("x",))


@jax.shard_map(mesh=MESH, in_specs=P("x"), out_specs=P())
def total(block):
    return jax.lax.psum(jnp.sum(block**2), "x")


def sum_of_squares(x):
    host = np.asarray(x)
    padded = np.zeros(-(-host.size // MESH.size) * MESH.size, np.float32)
    padded[: host.size] = host
    return float(total(jax.device_put(padded, NamedSharding(MESH, P("x")))))
