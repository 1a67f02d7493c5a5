# expect: runs
# scan's length must be concrete, and here steps is traced.
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
    (x, v), _ = lax.scan(lambda s, _: (step(*s), None), (x, jnp.zeros_like(x)), length=steps)
    return x
