# expect: pass
import jax.numpy as jnp


def sum_first_n(x, n):
    running = jnp.concatenate([jnp.zeros(1, x.dtype), jnp.cumsum(x)])
    return running[n]
