# expect: runs
# Splits x over the mesh and adds with psum, but does not pad: a batch whose size is not a multiple of the device
# count cannot be cut into equal blocks.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
total = jax.jit(jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i"), mesh=mesh, in_specs=P("i"),
                              out_specs=P()))


def sum_of_squares(x):
    return total(jax.device_put(x, NamedSharding(mesh, P("i"))))
