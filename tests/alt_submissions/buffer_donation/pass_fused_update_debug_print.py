# expect: pass
# One donating step that returns the new weights and the change; a debug print of the change is allowed.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    change = jnp.max(jnp.abs(new - w))
    jax.debug.print("change {c}", c=change)
    return new, change


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = step(w, g, lr)
        changes.append(change)
    return w, changes
