# expect: weights_split
# Silences the error by gathering w_out whole onto every device: the product is no longer split on both sides, but
# every device now holds the full weight, which tensor parallelism exists to avoid.
import jax


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return hidden @ jax.sharding.reshard(w_out, jax.P())
