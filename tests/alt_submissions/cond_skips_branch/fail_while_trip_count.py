# expect: skips_branch
# Skips the rounds with a trip count of 0, but the contract asks for a cond branch.
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
    rounds = jnp.where(lumpy, ROUNDS, 0)
    stirred = lax.fori_loop(0, rounds, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)
    return jnp.where(lumpy, stirred, quick(x))
