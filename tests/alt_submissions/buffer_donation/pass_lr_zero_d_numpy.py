# expect: pass
# lr handed over as a 0-d NumPy float32: never weights, even when n = 1; only the weights are donated.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    lr = np.float32(lr)
    changes = []
    for g in grads:
        w, change = step(w, g, lr)
        changes.append(change)
    return w, changes
