# expect: runs
# Donates the weights, but still measures the change against the old w after the step: that array was donated,
# so it is deleted, and reading it raises.
from functools import partial

import jax
import jax.numpy as jnp

CLIP = 1.0


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    return jnp.clip(w - lr * g, -CLIP, CLIP)


def train(w, grads, lr):
    changes = []
    for g in grads:
        new_w = sgd_step(w, g, lr)
        changes.append(jnp.max(jnp.abs(new_w - w)))
        w = new_w
    return w, changes
