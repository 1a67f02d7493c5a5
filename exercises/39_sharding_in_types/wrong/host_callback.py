# expect: replicated
# Hands the second product to NumPy through a pure_callback: the error is gone because the devices no longer
# compute y.
import jax
import numpy as np


def _host_product(hidden, w_out):
    return (np.asarray(hidden) @ np.asarray(w_out)).astype(np.float32)


@jax.jit
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    shape = jax.ShapeDtypeStruct((x.shape[0], w_out.shape[1]), x.dtype)
    return jax.pure_callback(_host_product, shape, hidden, w_out)
