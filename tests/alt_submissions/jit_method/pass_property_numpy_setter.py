# expect: pass
# The fields are properties whose setters convert with NumPy on the host (a jnp conversion there would compile
# inside the graded calls); apply hands them to one module-level jitted function.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _forward(w, b, x):
    return jnp.tanh(jnp.dot(x, w) + b)


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    @property
    def w(self):
        return self._w

    @w.setter
    def w(self, value):
        self._w = np.asarray(value, np.float32)

    @property
    def b(self):
        return self._b

    @b.setter
    def b(self, value):
        self._b = float(value)

    def apply(self, x):
        return _forward(self._w, self._b, x)
