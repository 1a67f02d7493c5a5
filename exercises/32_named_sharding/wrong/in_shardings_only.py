# expect: replicated
# Splits x by rows on the way in, and leaves the outputs to jit: y follows the rows, but so do the norms, which
# end up split over the devices instead of whole on each.
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",))


@partial(jax.jit, in_shardings=NamedSharding(mesh, P("rows")))
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
