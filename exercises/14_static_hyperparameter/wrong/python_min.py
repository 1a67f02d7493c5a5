# expect: runs
# Removes the static marking but keeps Python's min(): it needs lr's value while tracing.
import jax
import jax.numpy as jnp

MAX_LR = 0.5


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    return w - min(lr, MAX_LR) * jax.grad(loss)(w, x, y)
