# expect: values
# Avoids reading the donated weights by computing the change from the gradient alone: that ignores the clipping.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    return jnp.clip(w - lr * g, -1.0, 1.0)


def train(w, grads, lr):
    changes = []
    for g in grads:
        changes.append(lr * jnp.max(jnp.abs(g)))
        w = sgd_step(w, g, lr)
    return w, changes
