# expect: error:import
# A mesh of 8 devices, the count of the machine the code was written on: no graded machine has that many.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ("rows",))


@partial(jax.jit, in_shardings=NamedSharding(mesh, P("rows")),
         out_shardings=(NamedSharding(mesh, P("rows")), NamedSharding(mesh, P())))
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
