# expect: values
# psum inside, then out_specs=P("i") and a jnp.sum outside: every device already held the total, so it is counted
# once per device.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("i",))
f = jax.jit(jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i")[None], mesh=mesh, in_specs=P("i"),
                          out_specs=P("i")))


def sum_of_squares(x):
    padded = jnp.pad(x, (0, -x.shape[0] % mesh.size))
    return jnp.sum(f(jax.device_put(padded, NamedSharding(mesh, P("i")))))
