from functools import partial

import jax
import jax.numpy as jnp

CLIP = 1.0


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    """One update: step against the gradient, then keep every weight within [-CLIP, CLIP]. The weights are
    donated: XLA writes the new weights into their buffer, and the array passed in is deleted."""
    new_w = jnp.clip(w - lr * g, -CLIP, CLIP)
    # The change is measured inside the step, while the old weights still exist.
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = sgd_step(w, g, lr)  # rebind at once: the old w must never be read again
        changes.append(change)
    return w, changes
