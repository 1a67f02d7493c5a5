# expect: one_compile
# Builds the mesh from the devices sorted by how many batches each has served, "least busy first": after every call
# the order changes, and so does the placement.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

_served = {d.id: 0 for d in jax.devices()}


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    devices = sorted(jax.devices(), key=lambda d: (_served[d.id], d.id))
    _served[devices[0].id] += 1
    mesh = jax.make_mesh((len(devices),), ("batch",), devices=devices)
    return _forward(jax.device_put(x, NamedSharding(mesh, P("batch"))), jax.device_put(w, NamedSharding(mesh, P())))
