# expect: computed_in_jit
# Right numbers and dtype, computed with NumPy; jnp.asarray only moves them onto the device.
import jax
import jax.numpy as jnp
import numpy as np


def gaps(t):
    with jax.enable_x64(True):
        return jnp.asarray(np.diff(t))
