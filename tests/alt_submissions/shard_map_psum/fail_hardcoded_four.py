# expect: sharded
# Writes a device count in (a mesh of 4): on 3 devices the mesh cannot be built, on 6 two devices get nothing.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def sum_of_squares(x):
    mesh = jax.make_mesh((4,), ("i",))
    padded = jnp.pad(x, (0, -x.shape[0] % 4))
    f = jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    return jax.jit(f)(jax.device_put(padded, NamedSharding(mesh, P("i"))))
