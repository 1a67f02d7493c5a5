# expect: pass
# Right: a where-mask, plus jax.debug.print of n and the result; debug printing is no host computation, so the
# in_program check must pass.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    total = jnp.sum(jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0))
    jax.debug.print("n={n} sum={s}", n=n, s=total)
    return total
