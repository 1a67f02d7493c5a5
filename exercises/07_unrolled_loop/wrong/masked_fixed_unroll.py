# expect: program_size
# Loops to the largest count with a mask: the size no longer depends on steps, but it is still unrolled.
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
    for i in range(200):
        nx, nv = step(x, v)
        x, v = jnp.where(i < steps, nx, x), jnp.where(i < steps, nv, v)
    return x
