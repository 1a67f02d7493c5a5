# expect: pass
# steps static: fori_loop with concrete bounds becomes a scan; one compile per count.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnums=1)
def simulate(x, steps):
    def body(i, carry):
        pos, vel = carry
        return step(pos, vel)

    pos, _ = lax.fori_loop(0, steps, body, (x, jnp.zeros_like(x)))
    return pos
