# expect: pass
# review: review.left.primitives
# Right, the long way round: the largest magnitude is found by sorting every value, where a max would do.
import jax
import jax.numpy as jnp
from jax import lax

ROUNDS = 16


def simmer(x, w):
    return lax.fori_loop(0, ROUNDS, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


@jax.jit
def finish(x, w):
    lumpy = jnp.sort(jnp.abs(x).ravel())[-1] > 1.0
    return lax.cond(lumpy, simmer, lambda x, w: 0.5 * x, x, w)
