# expect: uses_pmap
# Uses jax.shard_map (the modern way), but this exercise is about pmap: no pmap call is made.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def sum_of_squares(x):
    n = jax.local_device_count()
    mesh = jax.make_mesh((n,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
    rows = jnp.pad(x, (0, -x.shape[0] % n))
    f = jax.shard_map(lambda r: jax.lax.psum(jnp.sum(r**2), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    return jax.jit(f)(rows)
