# expect: reaches_jit
# A static tuple and one compile per value, but the means come from NumPy through jax.pure_callback.
import jax
import numpy as np
from functools import partial


@partial(jax.jit, static_argnums=1)
def _pool(x, windows):
    size = sum(x.shape[0] // w for w in windows)

    def host(v):
        v = np.asarray(v, np.float32)
        return np.concatenate([v.reshape(-1, w).mean(axis=1) for w in windows]).astype(np.float32)

    return jax.pure_callback(host, jax.ShapeDtypeStruct((size,), x.dtype), x)


def pyramid_pool(x, windows):
    return _pool(x, tuple(windows))
