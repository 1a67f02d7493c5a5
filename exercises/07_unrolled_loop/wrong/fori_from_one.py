# expect: values
# The loop is one operation, but it starts at 1: one tick short for every count.
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    """One tick of a damped, stiffening spring: positions x, velocities v."""
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@jax.jit
def simulate(x, steps):
    v = jnp.zeros_like(x)
    x, v = lax.fori_loop(1, steps, lambda i, s: step(*s), (x, v))
    return x
