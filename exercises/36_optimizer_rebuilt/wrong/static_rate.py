# expect: epoch_compiles
# The optimizer made once (Adam's scaling without a rate), and the learning rate handed to the step as a static
# argument: hashable and equal by value, but every epoch's rate is a new value, baked into a new program.
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


scaler = optax.scale_by_adam()


@functools.partial(jax.jit, static_argnames="lr")
def train_step(params, opt_state, x, y, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = scaler.update(grads, opt_state, params)
    updates = jax.tree.map(lambda u: -lr * u, updates)
    return optax.apply_updates(params, updates), opt_state


def train(params, batches, lrs, report):
    opt_state = scaler.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        for x, y in batches:
            params, opt_state = train_step(params, opt_state, x, y, lr=lr)
        report(epoch, params)
    return params
