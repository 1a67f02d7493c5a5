# expect: in_program
# Runs the loop on the host with NumPy and hands the positions back through a callback.
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


def _host(x, steps):
    x = np.asarray(x, np.float32)
    v = np.zeros_like(x)
    for _ in range(int(steps)):
        a = -x - 0.5 * x**3 - 0.3 * v
        v = v + np.float32(DT) * a
        x = x + np.float32(DT) * v
    return x.astype(np.float32)


@jax.jit
def simulate(x, steps):
    return jax.pure_callback(_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, steps)
