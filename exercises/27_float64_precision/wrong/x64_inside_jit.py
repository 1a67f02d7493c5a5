# expect: precise
# Switches 64-bit types on inside the jitted function: too late, the input was converted to float32
# at the boundary, before the body ran.
import jax
import jax.numpy as jnp


@jax.jit
def _gaps(t):
    with jax.enable_x64(True):
        t = t.astype(jnp.float64)
        return t[1:] - t[:-1]


def gaps(t):
    return _gaps(t)
