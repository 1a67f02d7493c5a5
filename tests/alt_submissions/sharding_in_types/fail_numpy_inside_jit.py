# expect: runs
# Pulls the hidden layer to the host with NumPy for the second product: inside jit there is no value to pull.
import jax
import numpy as np


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return np.asarray(hidden) @ np.asarray(w_out)
