# expect: values
# Wrong (issue case): the loop starts from x[0] and adds x[1..n-1], so n = 0 still returns x[0]. The message must
# say what the numbers show (n = 0 counted x[0]), not blame a clipped index or a cumulative sum that isn't there.
import jax
from jax import lax


@jax.jit
def sum_first_n(x, n):
    return lax.fori_loop(1, n, lambda i, total: total + x[i], x[0])
