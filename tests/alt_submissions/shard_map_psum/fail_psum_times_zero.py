# expect: psum_inside
# The body holds a psum over the mesh axis, multiplied by 0 and thrown away: each device returns its own sum,
# and the total is taken outside shard_map.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))


def chunk_sums(chunk):
    own = jnp.sum(chunk ** 2)
    return (0 * jax.lax.psum(own, "i") + own)[None]


partial_sums = jax.jit(jax.shard_map(chunk_sums, mesh=mesh, in_specs=P("i"), out_specs=P("i")))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return jnp.sum(partial_sums(jax.device_put(padded, NamedSharding(mesh, P("i")))))
