# expect: values
# Donates correctly, but rounds the step through bfloat16 "to be fast": the weights drift far beyond float32 rounding.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    delta = (lr * g).astype(jnp.bfloat16).astype(jnp.float32)
    new = jnp.clip(w - delta, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = step(w, g, lr)
        changes.append(change)
    return w, changes
