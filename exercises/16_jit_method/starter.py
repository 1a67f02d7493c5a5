from functools import partial

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w  # float32[8, 4] weights
        self.b = b  # a Python float: the bias

    # jit cannot trace self (it is not an array), so self is marked static.
    # TODO: what does jit keep of a static self, and when does it read self.w and self.b?
    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
