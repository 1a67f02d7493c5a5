# expect: pass
# No decorator: the grader jits it with no options, so lr is traced; jnp.clip does the cap.
import jax
import jax.numpy as jnp


def sgd_step(w, x, y, lr):
    def loss(v):
        return jnp.mean((x @ v - y) ** 2)

    return w - jnp.clip(lr, 0.0, 0.5) * jax.grad(loss)(w)
