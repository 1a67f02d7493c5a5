# expect: one_compile
# A right computation, but the setter converts every assigned value with jnp.asarray: an eager jax.numpy call
# outside jit, which compiles a small program of its own during the graded calls.
import jax
import jax.numpy as jnp


@jax.jit
def _forward(w, b, x):
    return jnp.tanh(x @ w + b)


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def __setattr__(self, name, value):
        object.__setattr__(self, name, jnp.asarray(value, dtype=jnp.float32))

    def apply(self, x):
        return _forward(self.w, self.b, x)
