# expect: skips_branch
# lax.select is where's lower-level twin: it also needs both results computed first.
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
    return lax.select(jnp.broadcast_to(lumpy, x.shape), simmer(x, w), quick(x))
