# expect: precise
# Casts to float64 inside the jitted function: with 64-bit types off the cast is ignored (with a
# warning), and the timestamps were already float32 when they arrived.
import jax
import jax.numpy as jnp


@jax.jit
def _gaps(t):
    t = t.astype(jnp.float64)
    return t[1:] - t[:-1]


def gaps(t):
    return _gaps(t)
