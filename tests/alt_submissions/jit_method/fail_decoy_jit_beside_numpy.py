# expect: in_jit
# The right jitted function runs on every call, with the current fields, but apply returns a NumPy result instead.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _apply(w, b, x):
    return jnp.tanh(x @ w + b)


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        _apply(self.w, self.b, x)
        return np.tanh(x @ self.w + self.b).astype(np.float32)
