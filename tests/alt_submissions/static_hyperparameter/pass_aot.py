# expect: pass
# Compiled ahead of time at import, for a Python-float learning rate: later calls only run it.
import jax
import jax.numpy as jnp
import numpy as np


def _step(w, x, y, lr):
    loss = lambda v: jnp.mean((x @ v - y) ** 2)
    return w - jnp.minimum(lr, 0.5) * jax.grad(loss)(w)


_w = np.zeros(4, np.float32)
_x = np.zeros((32, 4), np.float32)
_y = np.zeros(32, np.float32)
sgd_step = jax.jit(_step).lower(_w, _x, _y, 0.1).compile()
