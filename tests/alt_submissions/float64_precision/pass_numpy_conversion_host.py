# expect: pass
# Converts on the host with NumPy (no eager jax.numpy outside jit), then one jitted subtraction in 64-bit.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _gaps(t):
    return jnp.diff(t)


def gaps(t):
    t = np.ascontiguousarray(t, dtype=np.float64)
    with jax.enable_x64(True):
        return _gaps(t)
