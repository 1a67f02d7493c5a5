# expect: donates
# Donates the wrong argument: the gradient's buffer is reused for the output, and the weights are copied as before.
from functools import partial

import jax
import jax.numpy as jnp

CLIP = 1.0


@partial(jax.jit, donate_argnums=1)
def sgd_step(w, g, lr):
    new_w = jnp.clip(w - lr * g, -CLIP, CLIP)
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = sgd_step(w, g, lr)
        changes.append(change)
    return w, changes
