# expect: values
# The sharding is right, but gelu is the exact (erf) one, not jax.nn.gelu's default tanh approximation.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in, approximate=False)
    return jnp.dot(hidden, w_out, out_sharding=P())
