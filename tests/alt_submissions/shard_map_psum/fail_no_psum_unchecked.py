# expect: psum_inside
# Turns off the replication check instead of adding a psum: every device returns its own block's sum, and
# out_specs=P() keeps just one of them.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
f = jax.jit(jax.shard_map(lambda c: jnp.sum(c**2), mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return f(jax.device_put(padded, NamedSharding(mesh, P("i"))))
