# expect: error:import
# A mesh of 4 devices, the count of the machine the code was written on: the 2-device machine cannot build it.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4,), ("batch",))
by_rows = NamedSharding(mesh, P("batch"))


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(jax.device_put(x, by_rows), jax.device_put(w, NamedSharding(mesh, P())))
