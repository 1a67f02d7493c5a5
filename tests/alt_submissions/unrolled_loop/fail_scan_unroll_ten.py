# expect: program_size
# A traced-length loop is not possible with scan, so steps is static and the scan unrolled 10 times: the body counts
# 10 times (10 × 10 equations, plus the scan and the setup: 102), past the limit of 100.
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

    (x, _), _ = lax.scan(body, (x, jnp.zeros_like(x)), None, length=steps, unroll=10)
    return x
