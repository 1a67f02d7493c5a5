# expect: update_in_jit
# Takes the gradient step eagerly, outside jit, and only jits (and donates into) the clipping: the gradient never
# reaches the compiled step.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def clip_into(w, raw):
    new = jnp.clip(raw, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        raw = w - lr * g
        w, change = clip_into(w, raw)
        changes.append(change)
    return w, changes
