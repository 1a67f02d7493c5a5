# expect: pass
# The weights travel in a dict; the whole state is donated, and the step returns the new state and the change.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def update(state, g, lr):
    new = jnp.clip(state["w"] - lr * g, -1.0, 1.0)
    return {"w": new}, jnp.max(jnp.abs(new - state["w"]))


def train(w, grads, lr):
    state = {"w": w}
    changes = []
    for g in grads:
        state, delta = update(state, g, lr)
        changes.append(delta)
    return state["w"], changes
