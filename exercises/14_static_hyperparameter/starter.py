from functools import partial

import jax
import jax.numpy as jnp

MAX_LR = 0.5


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# lr is static so that Python's min() below can read its value while tracing.
# TODO: the schedule hands sgd_step a new learning rate on every step.
@partial(jax.jit, static_argnames="lr")
def sgd_step(w, x, y, lr):
    step = min(lr, MAX_LR)
    return w - step * jax.grad(loss)(w, x, y)


# Not graded: a scratch run (F6 in the app, `jittrainer run static_hyperparameter` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    w = jnp.zeros(4)
    x = jnp.ones((32, 4))
    y = jnp.ones(32)
    for lr in (0.1, 0.2, 0.8):
        print(sgd_step(w, x, y, lr))
