# expect: pass
# Writes the product as a broadcast multiply summed over H: a sum over a split axis has a rule (the total, whole on
# every device), so nothing is ambiguous.
import jax


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return (hidden[:, :, None] * w_out[None, :, :]).sum(axis=1)
