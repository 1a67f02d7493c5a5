# expect: in_jit
# The shardings are right, but the numbers come from NumPy through a pure_callback: the host does the work.
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("rows",), axis_types=(jax.sharding.AxisType.Auto,))
by_rows, whole = NamedSharding(mesh, P("rows")), NamedSharding(mesh, P())


def _host(x):
    n = np.linalg.norm(np.asarray(x), axis=1).astype(np.float32)
    return (np.asarray(x) / n[:, None]).astype(np.float32), n


@partial(jax.jit, in_shardings=by_rows, out_shardings=(by_rows, whole))
def _normalize(x):
    shapes = (jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct(x.shape[:1], x.dtype))
    return jax.pure_callback(_host, shapes, x)


def normalize_rows(x):
    return _normalize(x)
