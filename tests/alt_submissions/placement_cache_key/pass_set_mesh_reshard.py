# expect: pass
# A mesh set once for the program, and the batch resharded by rows inside the jitted function.
import jax
from jax.sharding import PartitionSpec as P

jax.set_mesh(jax.make_mesh((jax.device_count(),), ("batch",)))


@jax.jit
def _forward(x, w):
    x = jax.sharding.reshard(x, P("batch"))
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(x, w)
