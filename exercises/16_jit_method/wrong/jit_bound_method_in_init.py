# expect: follows_mutation
# Jits the bound method once per object, in __init__: self is closed over, so self.w and self.b are read once,
# while tracing, and baked into the program.
import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b
        self.apply = jax.jit(self._apply)

    def _apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
