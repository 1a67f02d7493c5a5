# expect: in_program
# Computes on the host: the jitted function only passes delta out and the answer back in.
import jax
import jax.numpy as jnp
from jax.experimental import io_callback


def _host(delta):
    d = float(delta)
    return jnp.float32(1.5 * d + 2.0) if d > 0 else jnp.float32(0.25 * d)


@jax.jit
def heat(delta):
    return io_callback(_host, jax.ShapeDtypeStruct((), jnp.float32), delta)
