# expect: fresh_object
# Wants one compiled program for all layers: every Layer hashes and compares equal, and an assignment empties the
# cache so the changed layer is traced again. A new Layer then runs the program traced for another layer.
from functools import partial

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        Layer.apply.clear_cache()

    def __hash__(self):
        return 0

    def __eq__(self, other):
        return isinstance(other, Layer)

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
