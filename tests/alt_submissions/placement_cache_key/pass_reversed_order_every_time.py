# expect: pass
# The mesh lists the devices in reverse, but the same reverse every time: the order is part of the placement, and it
# never changes.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("batch",), devices=jax.devices()[::-1])


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(jax.device_put(x, NamedSharding(mesh, P("batch"))), jax.device_put(w, NamedSharding(mesh, P())))
