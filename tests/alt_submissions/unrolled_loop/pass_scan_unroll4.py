# expect: pass
# A modest unroll factor: the body appears four times, whatever steps is.
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
    (x, _), _ = lax.scan(lambda c, _: (step(*c), None), (x, jnp.zeros_like(x)), length=steps, unroll=4)
    return x
