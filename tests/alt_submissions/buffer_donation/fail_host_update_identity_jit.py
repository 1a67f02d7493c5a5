# expect: donates
# Does the update in NumPy and only passes the result through a "donating" jit; the np.asarray view of w blocks
# the donation on CPU (and an identity output never reuses the buffer), so the weights are never donated.
from functools import partial

import jax
import numpy as np


@partial(jax.jit, donate_argnums=0)
def store(old, new):
    return new


def train(w, grads, lr):
    changes = []
    for g in grads:
        old = np.asarray(w)
        new = np.clip(old - lr * np.asarray(g), -1.0, 1.0)
        changes.append(float(np.max(np.abs(new - old))))
        w = store(w, new)
    return w, changes
