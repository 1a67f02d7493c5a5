# expect: pass
# The whole loop in one jitted lax.scan over the stacked gradients, with the weights donated.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=(0,))
def run(w, gs, lr):
    def body(w, g):
        new = jnp.clip(w - lr * g, -1.0, 1.0)
        return new, jnp.max(jnp.abs(new - w))

    return jax.lax.scan(body, w, gs)


def train(w, grads, lr):
    final, changes = run(w, jnp.stack(grads), lr)
    return final, list(changes)
