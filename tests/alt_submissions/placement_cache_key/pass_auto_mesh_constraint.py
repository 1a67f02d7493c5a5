# expect: pass
# An Auto mesh and a sharding constraint inside the jitted function: NumPy batches go in, the program splits them.
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("batch",))


@jax.jit
def _forward(x, w):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P("batch")))
    return jax.lax.with_sharding_constraint(jax.nn.softmax(x @ w, axis=-1), NamedSharding(mesh, P("batch")))


def predict(x, w):
    return _forward(x, w)
