# expect: pass
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


def _simulate(x, steps):
    def tick(carry, _):
        return step(*carry), None

    (x, _), _ = lax.scan(tick, (x, jnp.zeros_like(x)), xs=None, length=steps)
    return x


simulate = jax.jit(_simulate, static_argnames="steps")
