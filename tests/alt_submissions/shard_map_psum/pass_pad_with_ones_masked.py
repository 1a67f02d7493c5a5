# expect: pass
# Pads with ones, not zeros, and masks the padding out inside the body with each device's own positions: the
# statement accepts any padding that leaves the result right.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@partial(jax.jit, static_argnums=(1, 2))
def _run(padded, n, size):
    mesh = jax.make_mesh((n,), ("i",))

    def body(block):
        start = jax.lax.axis_index("i") * block.shape[0]
        real = start + jnp.arange(block.shape[0]) < size
        return jax.lax.psum(jnp.sum(jnp.where(real, block**2, 0.0)), "i")

    padded = jax.reshard(padded, NamedSharding(mesh, P("i")))
    return jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P())(padded)


def sum_of_squares(x):
    n = jax.device_count()
    padded = jnp.concatenate([x, jnp.ones(-x.shape[0] % n, x.dtype)])
    return _run(padded, n, x.shape[0])
