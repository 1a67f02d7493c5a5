# expect: follows_scale
# Computes the whole result in NumPy on the host through jax.pure_callback: right numbers, one compile, SCALE
# untouched, but jit computes nothing. follows_scale must say the work was done on the host.
import jax
import numpy as np

SCALE = 2.0


def _on_host(x, scale):
    return (np.maximum(0, x) * scale).astype(np.float32)


@jax.jit
def scaled_relu(x, scale):
    return jax.pure_callback(_on_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, scale)
