# expect: values
# Special-cases the statement's examples (0 and 1 ticks) and otherwise runs a fixed 100 ticks.
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
    x100, _ = lax.fori_loop(0, 100, lambda i, s: step(*s), (x, jnp.zeros_like(x)))
    x1, _ = step(x, jnp.zeros_like(x))
    return jnp.where(steps == 0, x, jnp.where(steps == 1, x1, x100))
