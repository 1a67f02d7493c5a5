# expect: values
# Fresh values and one compile, but the product is taken in float16: errors of 1e-3, far beyond float32 rounding.
import jax
import jax.numpy as jnp


@jax.jit
def _forward(w, b, x):
    return jnp.tanh((x.astype(jnp.float16) @ w.astype(jnp.float16)).astype(jnp.float32) + b)


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        return _forward(self.w, self.b, x)
