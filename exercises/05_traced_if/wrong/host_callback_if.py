# expect: in_program
# Sends delta to Python through a callback and runs the if there: it works, but the choice is not in the program.
import jax
import jax.numpy as jnp
import numpy as np


def _heat_on_host(delta):
    d = float(delta)
    return np.float32(1.5 * d + 2.0 if d > 0 else 0.25 * d)


@jax.jit
def heat(delta):
    return jax.pure_callback(_heat_on_host, jax.ShapeDtypeStruct((), jnp.float32), delta)
