# expect: no_warning
# Donates the weights and the gradient: only one output has their shape, so one donated buffer is wasted and JAX
# warns that it was not usable.
from functools import partial

import jax
import jax.numpy as jnp

CLIP = 1.0


@partial(jax.jit, donate_argnums=(0, 1))
def sgd_step(w, g, lr):
    new_w = jnp.clip(w - lr * g, -CLIP, CLIP)
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = sgd_step(w, g, lr)
        changes.append(change)
    return w, changes
