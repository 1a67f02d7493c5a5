# expect: hit
# The rate bound with functools.partial before jitting: a keyword bound in a partial is a Python value the traced
# function closes over, so it is written into the program.
import functools

import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def sgd_step(params, velocity, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    velocity = jax.tree.map(lambda g, v: g + 0.9 * v, grads, velocity)
    return jax.tree.map(lambda p, v: p - lr * v, params, velocity), velocity


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    step = jax.jit(functools.partial(sgd_step, lr=lr))
    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    for x, y in batches:
        params, velocity = step(params, velocity, x, y)
    return params
