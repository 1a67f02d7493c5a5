# expect: in_jit
# The gradient jitted, the optimizer run eagerly after it: the gradient's program is cached, but the parameters
# come out of eager operations.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grad_fn = jax.jit(jax.grad(loss_fn))


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    optimizer = optax.sgd(lr, momentum=0.9)
    opt_state = optimizer.init(params)
    for x, y in batches:
        updates, opt_state = optimizer.update(grad_fn(params, x, y), opt_state, params)
        params = optax.apply_updates(params, updates)
    return params
