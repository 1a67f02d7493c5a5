# expect: pass
# The update written as w + (-lr) * g, clipped with minimum/maximum: other float32 rounding of the same step, within
# the tolerance fitted to the size of what each weight has accumulated.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(w, g, lr):
    new = jnp.maximum(jnp.minimum(w + (-lr) * g, 1.0), -1.0)
    return new, jnp.max(jnp.abs(new - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = step(w, g, lr)
        changes.append(float(change))
    return w, changes
