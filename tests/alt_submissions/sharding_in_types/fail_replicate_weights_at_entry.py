# expect: weights_split
# Replicates both weights on entry "to keep the types simple": every product is unambiguous, every device holds both
# weights whole.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    w_in, w_out = jax.sharding.reshard(w_in, P()), jax.sharding.reshard(w_out, P())
    return jnp.dot(jax.nn.gelu(x @ w_in), w_out)
