# expect: update_in_jit
# A right donating update runs on the device, but train returns weights and changes computed on the host (from the
# weights as Python numbers, so no array copy of them is alive when a step runs).
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def host_step(host, g, lr):
    old = np.array(host, np.float32)
    new = np.clip(old - np.float32(lr) * np.array(g), -1.0, 1.0).astype(np.float32)
    return new.tolist(), float(np.max(np.abs(new - old)))


def train(w, grads, lr):
    host = w.tolist()
    changes = []
    for g in grads:
        w, _ = step(w, g, lr)
        host, change = host_step(host, g, lr)
        changes.append(change)
    return np.array(host, np.float32), changes
