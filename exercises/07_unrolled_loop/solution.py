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
    # The loop is one operation in the program: its body is traced once, and steps stays a traced number,
    # so one compiled program serves every step count.
    v = jnp.zeros_like(x)
    x, v = lax.fori_loop(0, steps, lambda _, state: step(*state), (x, v))
    return x
