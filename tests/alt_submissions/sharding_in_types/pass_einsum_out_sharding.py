# expect: pass
# The second product as an einsum, with the result sharding stated on it.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def mlp(x, w_in, w_out):
    h = jax.nn.gelu(jnp.einsum("bd,dh->bh", x, w_in))
    return jnp.einsum("bh,hd->bd", h, w_out, out_sharding=P())
