# expect: donates
# Keeps every set of weights in a module-level history (as NumPy copies) before donating them to the step.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

HISTORY = []


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    new_w = jnp.clip(w - lr * g, -1.0, 1.0)
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        HISTORY.append(np.array(w))
        w, change = sgd_step(w, g, lr)
        changes.append(change)
    return w, changes
