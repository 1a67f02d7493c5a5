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
    # TODO: jnp.where needs both results before it can choose, so simmer runs on every call,
    # even when its result is thrown away.
    return jnp.where(lumpy, simmer(x, w), quick(x))


# Not graded: a scratch run (F6 in the app, `jittrainer run cond_skips_branch` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    w = jnp.eye(128) * 0.5
    smooth = jnp.full((128, 32), 0.5)
    print(finish(smooth, w)[0, 0])
    print(finish(smooth * 4, w)[0, 0])
