# expect: pass
# The gaps are computed in one jitted function inside the 64-bit block; a debug print of the largest gap stays in.
import jax
import jax.numpy as jnp


@jax.jit
def _gaps(t):
    d = jnp.diff(t)
    jax.debug.print("largest gap {g}", g=d.max())
    return d


def gaps(t):
    with jax.enable_x64(True):
        return _gaps(t)
