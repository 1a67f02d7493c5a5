import jax
import jax.numpy as jnp
from jax import lax

ROUNDS = 16


def simmer(x, w):
    """The slow path: 16 rounds of mixing, each one a matrix product."""
    return lax.fori_loop(0, ROUNDS, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


def quick(x):
    """The fast path."""
    return 0.5 * x


@jax.jit
def finish(x, w):
    lumpy = jnp.max(jnp.abs(x)) > 1.0
    # lax.cond traces both functions into branches of one cond; at run time only the chosen one executes.
    return lax.cond(lumpy, simmer, lambda x, w: quick(x), x, w)
