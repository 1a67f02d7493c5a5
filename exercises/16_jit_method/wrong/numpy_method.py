# expect: in_jit
# Drops jit from the method altogether ("the values are fresh now"): tanh(x @ w + b) runs eagerly, one
# operation at a time, and nothing of it is compiled as a whole.
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        return jnp.tanh(jnp.asarray(x) @ self.w + self.b)
