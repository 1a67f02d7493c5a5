# expect: pass
# An Auto mesh set as the context with jax.set_mesh (no mesh= argument), x padded and reshaped to one row per device.
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


def sum_of_squares(x):
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("dev",), axis_types=(AxisType.Auto,))
    rows = jnp.pad(x, (0, -len(x) % n)).reshape(n, -1)
    with jax.set_mesh(mesh):
        f = jax.shard_map(lambda r: jax.lax.psum(jnp.sum(r * r), "dev"), in_specs=P("dev", None), out_specs=P())
        return jax.jit(f)(rows)
