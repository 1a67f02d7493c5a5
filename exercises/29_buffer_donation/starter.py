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


# Not graded: a scratch run (F6 in the app, `jittrainer run buffer_donation` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    w = jnp.zeros(4)
    grads = [jnp.ones(4), -jnp.ones(4)]
    print(train(w, grads, 0.3))
