# expect: pass
# Keeps self out of jit: apply passes the current fields to a module-level jitted function.
import jax
import jax.numpy as jnp


@jax.jit
def _forward(w, b, x):
    return jnp.tanh(x @ w + b)


class Layer:
    def __init__(self, w, b):
        self.w, self.b = w, b

    def apply(self, x):
        return _forward(self.w, self.b, x)
