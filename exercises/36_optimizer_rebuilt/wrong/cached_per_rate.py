# expect: epoch_compiles
# "Build each optimizer only once": cached per learning rate. Every epoch has a rate of its own, so every epoch
# still gets a new optimizer object, and the static argument is new each time.
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@functools.lru_cache(maxsize=None)
def make_optimizer(lr):
    return optax.adam(lr)


@functools.partial(jax.jit, static_argnames="optimizer")
def train_step(params, opt_state, x, y, optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lrs, report):
    opt_state = make_optimizer(lrs[0]).init(params)
    for epoch, lr in enumerate(lrs, start=1):
        for x, y in batches:
            params, opt_state, loss = train_step(params, opt_state, x, y, optimizer=make_optimizer(lr))
        report(epoch, params)
    return params
