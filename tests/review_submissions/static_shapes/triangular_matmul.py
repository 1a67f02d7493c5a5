# expect: pass
# review: review.cost.work
# Heavy but right: every prefix sum at once, as a lower-triangular matrix of ones times x at HIGHEST precision,
# then the one at n. A 16×16 matrix is built and multiplied where one masked sum would do.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    size = x.shape[0]
    lower = jnp.tril(jnp.ones((size, size), x.dtype))
    prefix = jnp.dot(lower, x, precision=jax.lax.Precision.HIGHEST)
    return jnp.where(n > 0, prefix[jnp.maximum(n - 1, 0)], 0.0)
