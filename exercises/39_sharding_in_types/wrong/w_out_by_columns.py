# expect: replicated
# Reshards w_out by columns so that the sum over H is no longer split: it runs, but y comes back split by columns.
import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return hidden @ jax.sharding.reshard(w_out, P(None, "model"))
