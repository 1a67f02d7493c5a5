# expect: pass
# The parameters and the velocity donated to the step (their buffers reused in place); the rate a float32 argument.
import functools

import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@functools.partial(jax.jit, donate_argnums=(0, 1))
def step(params, velocity, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    velocity = jax.tree.map(lambda g, v: g + 0.9 * v, grads, velocity)
    return jax.tree.map(lambda p, v: p - lr * v, params, velocity), velocity


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    params = jax.device_put(params)
    velocity = jax.tree.map(jnp.zeros_like, params)
    for x, y in batches:
        params, velocity = step(params, velocity, x, y, np.float32(lr))
    return params
