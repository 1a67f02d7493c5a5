# expect: donates
# lr passed as a float32[1] array: with n = 1 it has the weights' size, so it counts as weights of the update, and
# it is never donated (only argument 0 is).
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.clip(w - lr[0] * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    lr = jax.device_put(np.array([lr], np.float32))
    changes = []
    for g in grads:
        w, change = step(w, g, lr)
        changes.append(change)
    return w, changes
