# expect: runs
# Computes the product in float64 with NumPy directly, like the reference: under jit the inputs are tracers,
# and np.asarray on a tracer raises.
import jax.numpy as jnp
import numpy as np


def project(x, w):
    out = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    return jnp.asarray(out, jnp.float32)
