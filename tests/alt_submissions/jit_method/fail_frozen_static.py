# expect: runs
# An immutable (frozen) dataclass, hashed by jit as a static argument: safe from stale values, but the grader
# assigns layer.w as the statement says, and a frozen object refuses.
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Layer:
    w: object
    b: float

    def __hash__(self):
        return hash((self.w.tobytes(), self.b))

    def __eq__(self, other):
        return isinstance(other, Layer) and self.w.tobytes() == other.w.tobytes() and self.b == other.b

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
