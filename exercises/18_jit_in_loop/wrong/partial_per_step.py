# expect: one_compile
# Moves the step to module level but binds lr with functools.partial inside the loop: every partial is a new
# function object, so every step compiles again.
from functools import partial

import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    for x, y in batches:
        w = jax.jit(partial(sgd_step, lr=lr))(w, x, y)
    return w
