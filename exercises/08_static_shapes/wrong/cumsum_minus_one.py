# expect: values
# Fixed shape and traceable, but cumsum(x)[n - 1] reads index -1 when n = 0: it returns the total, not 0.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    return jnp.cumsum(x)[n - 1]
