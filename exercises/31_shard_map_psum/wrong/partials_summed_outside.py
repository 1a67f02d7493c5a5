# expect: psum_inside
# The pmap habit: every device returns its own sum (out_specs=P("i")) and jnp.sum adds them up outside.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
partials = jax.jit(jax.shard_map(lambda c: jnp.sum(c**2, keepdims=True), mesh=mesh, in_specs=P("i"),
                                 out_specs=P("i")))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return jnp.sum(partials(jax.device_put(padded, NamedSharding(mesh, P("i")))))
