# expect: hit
# The learning rate as a static argument of one module-level step: hashable, equal by value, and therefore part of
# the program. Trial 2's rate is another value, so its step is another program, with another key on disk.
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


momentum = optax.trace(decay=0.9)


@functools.partial(jax.jit, static_argnames="lr")
def train_step(params, opt_state, x, y, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    velocity, opt_state = momentum.update(grads, opt_state)
    params = jax.tree.map(lambda p, v: p - lr * v, params, velocity)
    return params, opt_state, loss


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    opt_state = momentum.init(params)
    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y, lr=lr)
    return params
