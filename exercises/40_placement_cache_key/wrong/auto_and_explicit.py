# expect: one_compile
# Two helpers place the batches, one with jax.sharding.Mesh (Auto axes), one with jax.make_mesh (Explicit axes),
# and predict alternates between them: same devices, same order, same spec, but other axis types: another program.
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

legacy = Mesh(np.array(jax.devices()), ("batch",))
modern = jax.make_mesh((jax.device_count(),), ("batch",))
_calls = [0]


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    _calls[0] += 1
    mesh = legacy if _calls[0] % 2 else modern
    return _forward(jax.device_put(x, NamedSharding(mesh, P("batch"))), jax.device_put(w, NamedSharding(mesh, P())))
