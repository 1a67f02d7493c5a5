# expect: values
# The sharding is right, but the activation is a ReLU instead of jax.nn.gelu.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    return jnp.dot(jax.nn.relu(x @ w_in), w_out, out_sharding=P())
