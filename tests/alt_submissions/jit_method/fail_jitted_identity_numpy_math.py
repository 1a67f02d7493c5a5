# expect: in_jit
# x reaches a jitted function, which hands it straight back; tanh(x @ w + b) is computed with NumPy afterwards.
import jax
import numpy as np


@jax.jit
def _on_device(x):
    return x + 0.0


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        x = np.asarray(_on_device(x))
        return np.tanh(x @ self.w + self.b).astype(np.float32)
