# expect: pass
# Runs the ambiguous product under auto_axes: the compiler chooses how to compute it, and the result is typed
# replicated.
import jax
from jax.sharding import PartitionSpec as P


def _project(hidden, w_out):
    return hidden @ w_out


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return jax.sharding.auto_axes(_project, out_sharding=P())(hidden, w_out)
