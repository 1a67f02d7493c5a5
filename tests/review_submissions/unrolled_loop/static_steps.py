# expect: pass
# review: review.cost.compiles
# Right, but steps is static: lax.scan keeps the program small, yet every new number of steps compiles again.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(state, _):
    x, v = state
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return (x + DT * v, v), None


@partial(jax.jit, static_argnums=1)
def simulate(x, steps):
    (x, _), _ = lax.scan(step, (x, jnp.zeros_like(x)), length=steps)
    return x
