# expect: values
# Wrong: the loop stops one position early, so every sum misses its last element (n = 0 happens to be right).
import jax
from jax import lax


@jax.jit
def sum_first_n(x, n):
    return lax.fori_loop(0, n - 1, lambda i, total: total + x[i], 0.0)
