# expect: in_program
# Simmers on the host with NumPy and hands the result back through a callback.
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

import numpy as np


def _host_finish(x, w):
    x, w = np.asarray(x), np.asarray(w)
    if np.max(np.abs(x)) > 1.0:
        y = x
        for _ in range(ROUNDS):
            y = y + 0.1 * np.tanh(w @ y)
        return y.astype(np.float32)
    return (0.5 * x).astype(np.float32)


@jax.jit
def finish(x, w):
    return jax.pure_callback(_host_finish, jax.ShapeDtypeStruct(x.shape, x.dtype), x, w)
