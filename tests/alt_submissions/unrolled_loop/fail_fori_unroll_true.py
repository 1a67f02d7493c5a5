# expect: program_size
# fori_loop, but fully unrolled: the loop is written out again, once per tick.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnames="steps")
def simulate(x, steps):
    x, _ = lax.fori_loop(0, steps, lambda i, s: step(*s), (x, jnp.zeros_like(x)), unroll=True)
    return x
