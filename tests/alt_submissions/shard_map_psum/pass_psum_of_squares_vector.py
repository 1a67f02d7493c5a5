# expect: pass
# Each device squares its block, psum adds the blocks' partial sums, and that total is returned as it is.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))


def body(chunk):
    return jax.lax.psum(jnp.sum(jnp.square(chunk)), "i")


total = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P()))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return total(jax.device_put(padded, NamedSharding(mesh, P("i"))))
