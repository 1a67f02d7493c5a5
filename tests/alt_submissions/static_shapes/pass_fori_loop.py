# expect: pass
import jax
from jax import lax


@jax.jit
def sum_first_n(x, n):
    return lax.fori_loop(0, n, lambda i, total: total + x[i], 0.0)
