# expect: one_compile
# Hoisted to module level, but lr is marked static: each run's learning rate compiles a program of its own.
from functools import partial

import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@partial(jax.jit, static_argnames="lr")
def sgd_step(w, x, y, lr):
    return w - lr * jax.grad(loss)(w, x, y)


def train(w, batches, lr):
    for x, y in batches:
        w = sgd_step(w, x, y, lr=lr)
    return w
