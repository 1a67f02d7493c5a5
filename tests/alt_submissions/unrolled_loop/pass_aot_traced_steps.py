# expect: pass
# Compiled ahead of time with a traced step count: one program for every count.
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


def _simulate(x, steps):
    x, _ = lax.fori_loop(0, steps, lambda i, s: step(*s), (x, jnp.zeros_like(x)))
    return x


simulate = jax.jit(_simulate).lower(jax.ShapeDtypeStruct((8,), jnp.float32), 0).compile()
