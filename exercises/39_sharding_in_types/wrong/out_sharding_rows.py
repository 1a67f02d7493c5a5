# expect: replicated
# States a result sharding, but the wrong one: the total is split by rows over the devices (a reduce-scatter), so
# each device holds B / n rows of y instead of all of it.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return jnp.dot(hidden, w_out, out_sharding=P("model", None))
