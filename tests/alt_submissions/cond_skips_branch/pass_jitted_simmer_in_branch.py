# expect: pass
# simmer is jitted on its own and called from inside the branch.
import jax
import jax.numpy as jnp
from jax import lax

ROUNDS = 16


@jax.jit
def simmer(x, w):
    """The slow path: 16 rounds of mixing, each one a matrix product."""
    return lax.fori_loop(0, ROUNDS, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


def quick(x):
    """The fast path."""
    return 0.5 * x


def _smooth(x, w):
    return quick(x)


@jax.jit
def finish(x, w):
    return lax.cond(jnp.any(jnp.abs(x) > 1.0), simmer, _smooth, x, w)
