# expect: update_in_jit
# A right donating update runs on the device, but train returns weights and changes computed on the host.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    host = np.array(w)
    changes = []
    for g in grads:
        w, _ = step(w, g, lr)
        new = np.clip(host - np.float32(lr) * np.array(g), -1.0, 1.0).astype(np.float32)
        changes.append(float(np.max(np.abs(new - host))))
        host = new
    return host, changes
