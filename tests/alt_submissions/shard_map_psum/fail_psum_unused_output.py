# expect: psum_inside
# Returns two things, the psum and each device's own sum; the caller adds up the per-device sums instead.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))


def body(chunk):
    own = jnp.sum(chunk ** 2)
    return jax.lax.psum(own, "i"), own[None]


both = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=(P(), P("i"))))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    _, per_device = both(jax.device_put(padded, NamedSharding(mesh, P("i"))))
    return jnp.sum(per_device)
