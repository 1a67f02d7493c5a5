# expect: pass
# Pads and places x inside one jitted function (device_put with a NamedSharding works under jit).
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
sharded = NamedSharding(mesh, P("i"))
per_device = jax.shard_map(lambda c: jax.lax.psum(jnp.sum(jnp.square(c)), "i"), mesh=mesh, in_specs=P("i"),
                           out_specs=P())


@jax.jit
def sum_of_squares(x):
    padded = jnp.pad(x, (0, (-x.shape[0]) % mesh.size))
    return per_device(jax.device_put(padded, sharded))
