import jax
import jax.numpy as jnp

CLIP = 1.0


@jax.jit
def sgd_step(w, g, lr):
    """One update: step against the gradient, then keep every weight within [-CLIP, CLIP]."""
    return jnp.clip(w - lr * g, -CLIP, CLIP)


def train(w, grads, lr):
    changes = []
    for g in grads:
        new_w = sgd_step(w, g, lr)
        # TODO: sgd_step writes its result into a fresh buffer, so the old and the new weights are both alive
        # here: every step needs memory for two copies of the weights.
        changes.append(jnp.max(jnp.abs(new_w - w)))
        w = new_w
    return w, changes
