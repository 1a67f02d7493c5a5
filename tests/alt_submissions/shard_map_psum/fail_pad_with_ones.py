# expect: values
# Pads with ones and sums them too: every padded place adds 1 to the result whenever B is not a multiple of the
# device count (each run draws such sizes).
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@partial(jax.jit, static_argnums=1)
def _run(padded, n):
    mesh = jax.make_mesh((n,), ("i",))
    padded = jax.reshard(padded, NamedSharding(mesh, P("i")))
    body = jax.shard_map(lambda c: jax.lax.psum(jnp.sum(c**2), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    return body(padded)


def sum_of_squares(x):
    n = jax.device_count()
    return _run(jnp.concatenate([x, jnp.ones(-x.shape[0] % n, x.dtype)]), n)
