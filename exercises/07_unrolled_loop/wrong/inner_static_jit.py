# expect: runs
# Jits an inner function with steps static, but leaves simulate itself unjitted: the grader's jit traces steps first.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    """One tick of a damped, stiffening spring: positions x, velocities v."""
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnums=1)
def _advance(x, steps):
    x, _ = lax.fori_loop(0, steps, lambda i, s: step(*s), (x, jnp.zeros_like(x)))
    return x


def simulate(x, steps):
    return _advance(x, steps)
