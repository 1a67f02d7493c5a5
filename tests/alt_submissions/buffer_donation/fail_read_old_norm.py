# expect: runs
# Donates, then logs the norm of the update using the old weights after the step: they are deleted by then.
import jax
import jax.numpy as jnp


@jax.jit
def _step(w, g, lr):
    return jnp.clip(w - lr * g, -1.0, 1.0)


step = jax.jit(_step, donate_argnums=(0,))


def train(w, grads, lr):
    changes = []
    for g in grads:
        nw = step(w, g, lr)
        changes.append(jnp.abs(nw - w).max())
        w = nw
    return w, changes
