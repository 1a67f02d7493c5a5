# expect: values
# Returns the velocity from the carry instead of the position.
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@jax.jit
def simulate(x, steps):
    _, v = lax.fori_loop(0, steps, lambda i, s: step(*s), (x, jnp.zeros_like(x)))
    return v
