# Right: a lower-triangular matrix-vector product picks the prefix sum at n.
import jax
import jax.numpy as jnp

LOWER = None


@jax.jit
def sum_first_n(x, n):
    # row k of the lower-triangular ones matrix sums x[0..k]
    prefix = jnp.tril(jnp.ones((x.shape[0], x.shape[0]), x.dtype)) @ x
    return jnp.where(n > 0, prefix[jnp.maximum(n - 1, 0)], 0.0)
