# expect: runs
# Constrains w_out to be replicated: with Explicit axes and a mesh set, the constraint asserts instead of moving it.
import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return hidden @ jax.lax.with_sharding_constraint(w_out, P())
