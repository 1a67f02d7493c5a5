# expect: pass
# The learning rate travels in a traced dict of hyperparameters inside the step.
import jax
import jax.numpy as jnp


def _update(w, grads, hp):
    return w - jnp.minimum(hp["lr"], hp["max_lr"]) * grads


@jax.jit
def sgd_step(w, x, y, lr):
    grads = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return _update(w, grads, {"lr": lr, "max_lr": 0.5})
