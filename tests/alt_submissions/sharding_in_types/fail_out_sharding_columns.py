# expect: replicated
# States a result sharding, split by columns: each device keeps D / n columns of y.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    return jnp.dot(jax.nn.gelu(x @ w_in), w_out, out_sharding=P(None, "model"))
