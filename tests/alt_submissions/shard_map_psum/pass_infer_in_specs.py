# expect: pass
# in_specs left out: shard_map infers it from how the argument is placed (sharded along "i").
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@partial(jax.jit, static_argnums=1)
def _run(padded, mesh):
    body = jax.shard_map(lambda c: jax.lax.psum((c**2).sum(), "i"), mesh=mesh, out_specs=P())
    return body(padded)


def sum_of_squares(x):
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("i",))
    padded = jnp.concatenate([x, jnp.zeros(-x.shape[0] % n, x.dtype)])
    return _run(jax.device_put(padded, NamedSharding(mesh, P("i"))), mesh)
