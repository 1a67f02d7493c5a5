# expect: runs
# Builds the right mask, then indexes with it: x[mask] keeps a value-dependent number of elements,
# so its shape is unknown while tracing.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    mask = jnp.arange(x.shape[0]) < n
    return jnp.sum(x[mask])
