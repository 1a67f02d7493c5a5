# expect: pass
# A module-level jitted function of (w, b, x): the object passes its current fields every call. A debug print stays.
import jax
import jax.numpy as jnp


@jax.jit
def _forward(w, b, x):
    out = jnp.tanh(x @ w + b)
    jax.debug.print("mean activation {m}", m=out.mean())
    return out


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        return _forward(self.w, self.b, x)
