# expect: values
# A fori_loop, but the positions come back as a (1, 8) array, not float32[8].
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
    x, _ = lax.fori_loop(0, steps, lambda _, s: step(*s), (x, jnp.zeros_like(x)))
    return x[None, :]
