# expect: sharded
# Adds a psum, but still hands every device the whole of x (in_specs=P()): every device sums everything.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
total = jax.jit(jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i") / mesh.size, mesh=mesh,
                              in_specs=P(), out_specs=P()))


def sum_of_squares(x):
    return total(x)
