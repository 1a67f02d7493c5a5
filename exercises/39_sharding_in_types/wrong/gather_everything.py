# expect: weights_split
# Replicates both weights before anything else: no product is ambiguous any more, and nothing is split either.
import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    w_in = jax.sharding.reshard(w_in, P())
    w_out = jax.sharding.reshard(w_out, P())
    return jax.nn.gelu(x @ w_in) @ w_out
