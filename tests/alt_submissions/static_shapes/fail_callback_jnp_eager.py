# expect: one_compile
# Wrong (by the contract): a right mask, plus a debug callback that sums the kept elements again with jax.numpy.
# Inside the callback the array is concrete, so jnp.sum runs eagerly and compiles outside the program.
import jax
import jax.numpy as jnp


def _log(kept):
    print("kept sum", jnp.sum(kept))


@jax.jit
def sum_first_n(x, n):
    kept = jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)
    jax.debug.callback(_log, kept)
    return jnp.sum(kept)
