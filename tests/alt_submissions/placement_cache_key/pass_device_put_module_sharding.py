# expect: pass
# One sharding made at import; each batch is placed with device_put before a jit that has no shardings of its own.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("batch",))
rows = NamedSharding(mesh, P("batch"))
whole = NamedSharding(mesh, P())


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(jax.device_put(x, rows), jax.device_put(w, whole))
