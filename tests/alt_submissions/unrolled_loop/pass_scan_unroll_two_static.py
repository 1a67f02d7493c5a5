# expect: pass
# steps static, a scan unrolled twice: its body counts twice (never more than its length, and every graded count is
# at least 2), so the program has the same size for every count, well under 100 equations.
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
    def body(state, _):
        return step(*state), None

    (x, _), _ = lax.scan(body, (x, jnp.zeros_like(x)), None, length=steps, unroll=2)
    return x
