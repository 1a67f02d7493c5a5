# expect: pass
# A mutable dataclass registered as a pytree with both fields as data fields; apply jitted as a method.
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Layer:
    w: jax.Array
    b: float

    @jax.jit
    def apply(self, x):
        return jnp.tanh(jnp.dot(x, self.w) + self.b)
