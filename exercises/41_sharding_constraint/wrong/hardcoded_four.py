# expect: error:import
# Pads to a multiple of 4 and builds a 4-device mesh, the machine the code was written on: the 2-device machine
# cannot build it.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4,), ("rows",))


@partial(jax.jit, out_shardings=(NamedSharding(mesh, P("rows", None)), NamedSharding(mesh, P())))
def _load(table):
    padded = jnp.pad(table, ((0, -table.shape[0] % 4), (0, 0)))
    return padded, jnp.linalg.norm(padded, axis=1)


def shard_table(table):
    return _load(table)
