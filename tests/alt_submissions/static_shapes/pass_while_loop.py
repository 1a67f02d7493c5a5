import jax.numpy as jnp
from jax import lax


def sum_first_n(x, n):
    def cond(state):
        i, _ = state
        return i < n

    def body(state):
        i, total = state
        return i + 1, total + x[i]

    _, total = lax.while_loop(cond, body, (jnp.int32(0), jnp.float32(0)))
    return total
