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


# Not graded: a scratch run (F6 in the app, `jittrainer run jit_method` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    layer = Layer(np.ones((8, 4), np.float32), 0.0)
    x = np.ones((5, 8), np.float32) / 8
    print(layer.apply(x)[0])
    layer.b = 1.0
    print(layer.apply(x)[0])
