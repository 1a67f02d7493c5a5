# expect: pass
# Not jitted: the grader wraps it. Branches close over x and w instead of taking operands.
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


def finish(x, w):
    lumpy = jnp.abs(x).max() > 1
    return lax.cond(lumpy, lambda: simmer(x, w), lambda: quick(x))
