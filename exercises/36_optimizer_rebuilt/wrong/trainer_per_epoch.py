# expect: epoch_compiles
# A trainer object holding its optimizer, with a jitted method and self static: a new Trainer every epoch is a new
# static self (it defines no ==), so the method is traced and compiled again every epoch.
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


class Trainer:
    def __init__(self, lr):
        self.optimizer = optax.adam(lr)

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state


def train(params, batches, lrs, report):
    opt_state = None
    for epoch, lr in enumerate(lrs, start=1):
        trainer = Trainer(lr)
        if opt_state is None:
            opt_state = trainer.optimizer.init(params)
        for x, y in batches:
            params, opt_state = trainer.step(params, opt_state, x, y)
        report(epoch, params)
    return params
