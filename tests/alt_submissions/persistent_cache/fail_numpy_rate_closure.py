# expect: hit
# The rate made a float32 NumPy scalar "so it is an array, not a Python float", then closed over by the step: a
# closed-over value is a constant of the program all the same.
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    rate = np.float32(lr)

    @jax.jit
    def step(params, velocity, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        velocity = jax.tree.map(lambda g, v: g + 0.9 * v, grads, velocity)
        return jax.tree.map(lambda p, v: p - rate * v, params, velocity), velocity

    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    for x, y in batches:
        params, velocity = step(params, velocity, x, y)
    return params
