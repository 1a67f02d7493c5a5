# expect: runs
# The Auto-axes habit: a sharding constraint to replicate the hidden layer. With Explicit axes and a mesh set,
# with_sharding_constraint moves nothing: it asserts, and hidden is split.
import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.lax.with_sharding_constraint(jax.nn.gelu(x @ w_in), P())
    return hidden @ w_out
