# expect: one_compile
# Builds the mesh on every call with a fresh axis name: each call's shardings are new, so each compiles again.
import itertools

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

_names = itertools.count()


def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    name = f"rows{next(_names)}"
    mesh = jax.make_mesh((jax.device_count(),), (name,))
    out = (NamedSharding(mesh, P(name)), NamedSharding(mesh, P()))
    return jax.jit(_normalize, out_shardings=out)(x)
