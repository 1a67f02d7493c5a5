# expect: pass
# Momentum SGD by hand, the learning rate an ordinary argument of the jitted step: a traced scalar, not a constant.
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def step(params, velocity, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    velocity = jax.tree.map(lambda g, v: g + 0.9 * v, grads, velocity)
    params = jax.tree.map(lambda p, v: p - lr * v, params, velocity)
    return params, velocity


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    for x, y in batches:
        params, velocity = step(params, velocity, x, y, np.float32(lr))
    return params
