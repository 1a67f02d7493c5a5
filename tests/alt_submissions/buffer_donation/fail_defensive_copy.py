# expect: donates
# Copies the incoming weights "to be safe" before the loop: only the copy is donated, and the caller's weights stay
# in memory next to it.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    new_w = jnp.clip(w - lr * g, -1.0, 1.0)
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    w = jnp.array(w)
    changes = []
    for g in grads:
        w, change = sgd_step(w, g, lr)
        changes.append(change)
    return w, changes
