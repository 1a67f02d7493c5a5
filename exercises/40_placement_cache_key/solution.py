from functools import partial

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

# One placement for every batch: a mesh over every device, made once, and x split by rows over it. The weights are
# small: every device gets a whole copy.
mesh = jax.make_mesh((jax.device_count(),), ("batch",))
by_rows = NamedSharding(mesh, P("batch"))
everywhere = NamedSharding(mesh, P())


@partial(jax.jit, in_shardings=(by_rows, everywhere), out_shardings=by_rows)
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(x, w)
