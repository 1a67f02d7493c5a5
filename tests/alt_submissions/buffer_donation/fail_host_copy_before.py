# expect: donates
# Copies the old weights to the host (np.array: a copy, not a view) before each step to measure the change with
# NumPy: the copy keeps the old weights in memory next to the new ones, which the statement forbids.
import jax
import jax.numpy as jnp
import numpy as np

sgd_step = jax.jit(lambda w, g, lr: jnp.clip(w - lr * g, -1.0, 1.0), donate_argnums=0)


def train(w, grads, lr):
    changes = []
    for g in grads:
        before = np.array(w)
        w = sgd_step(w, g, lr)
        changes.append(float(np.max(np.abs(np.asarray(w) - before))))
    return w, np.array(changes)
