# expect: in_jit
# The momentum update handed to NumPy through jax.pure_callback inside the jitted step: the program is the same in
# every trial, but the update is computed in Python, not by the compiled program.
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def numpy_update(p, v, g, lr):
    v = np.asarray(g) + np.float32(0.9) * np.asarray(v)
    return (np.asarray(p) - np.asarray(lr) * v).astype(np.float32), v.astype(np.float32)


@jax.jit
def step(params, velocity, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    out = {}
    for k in params:
        shape = jax.ShapeDtypeStruct(params[k].shape, jnp.float32)
        out[k] = jax.pure_callback(numpy_update, (shape, shape), params[k], velocity[k], grads[k], lr)
    return {k: o[0] for k, o in out.items()}, {k: o[1] for k, o in out.items()}


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    for x, y in batches:
        params, velocity = step(params, velocity, x, y, np.float32(lr))
    return params
