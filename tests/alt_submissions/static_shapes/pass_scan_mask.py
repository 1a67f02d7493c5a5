# expect: pass
import jax
from jax import lax


@jax.jit
def sum_first_n(x, n):
    def step(carry, item):
        i, value = item
        return carry + jax.numpy.where(i < n, value, 0.0), None

    total, _ = lax.scan(step, 0.0, (jax.numpy.arange(x.shape[0]), x))
    return total
