# expect: runs
# Computes the transpose instead, (w_out.T @ hidden.T).T: the product still sums over H split on both sides.
import jax


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return (w_out.T @ hidden.T).T
