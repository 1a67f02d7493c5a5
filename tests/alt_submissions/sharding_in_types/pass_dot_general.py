# expect: pass
# lax.dot_general with explicit contracting dimensions and the result sharding.
import jax
from jax import lax
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(lax.dot_general(x, w_in, (((1,), (0,)), ((), ()))))
    return lax.dot_general(hidden, w_out, (((1,), (0,)), ((), ())), out_sharding=P())
