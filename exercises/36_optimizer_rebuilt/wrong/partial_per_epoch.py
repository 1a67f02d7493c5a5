# expect: epoch_compiles
# The optimizer bound with functools.partial and jitted at the start of each epoch: not static any more, but a new
# jitted function every epoch, whose cache starts empty.
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def step(params, opt_state, x, y, optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train(params, batches, lrs, report):
    opt_state = optax.adam(lrs[0]).init(params)
    for epoch, lr in enumerate(lrs, start=1):
        train_step = jax.jit(functools.partial(step, optimizer=optax.adam(lr)))
        for x, y in batches:
            params, opt_state = train_step(params, opt_state, x, y)
        report(epoch, params)
    return params
