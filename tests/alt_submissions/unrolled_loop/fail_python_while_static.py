# expect: program_size
# A Python while loop is unrolled just like a for loop.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnums=(1,))
def simulate(x, steps):
    v = jnp.zeros_like(x)
    t = 0
    while t < steps:
        x, v = step(x, v)
        t += 1
    return x
