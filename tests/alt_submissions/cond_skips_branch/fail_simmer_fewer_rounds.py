# expect: values
# Skips the slow path with lax.cond, but "tunes" simmer to 8 rounds: the results no longer match the given simmer.
import jax
import jax.numpy as jnp
from jax import lax


def simmer(x, w):
    return lax.fori_loop(0, 8, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


def quick(x):
    return 0.5 * x


@jax.jit
def finish(x, w):
    return lax.cond(jnp.max(jnp.abs(x)) > 1.0, simmer, lambda x, w: quick(x), x, w)
