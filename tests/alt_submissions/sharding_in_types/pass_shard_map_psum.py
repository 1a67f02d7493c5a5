# expect: pass
# Writes the per-device program by hand: each device multiplies its own slices and psum adds the partial products.
import jax
from jax.sharding import PartitionSpec as P


def _block(x, w_in, w_out):
    return jax.lax.psum(jax.nn.gelu(x @ w_in) @ w_out, "model")


@jax.jit
def mlp(x, w_in, w_out):
    return jax.shard_map(_block, in_specs=(P(), P(None, "model"), P("model", None)), out_specs=P())(x, w_in, w_out)
