# expect: pass
# The psum'd total comes back from shard_map and is turned into a Python float outside: still built from the psum.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))


def body(chunk):
    partial = jnp.dot(chunk, chunk)
    return jax.lax.psum(partial, "i")


total = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P()))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return float(total(jax.device_put(padded, NamedSharding(mesh, P("i")))))
