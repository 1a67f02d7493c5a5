# expect: runs
# Drops the static marking but keeps the Python loop: range() cannot take a traced count.
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
    for _ in range(steps):
        x, v = step(x, v)
    return x
