# expect: pass
# A trainer object with a jitted method and a static self, made once for the whole run: one self, one key.
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


class Trainer:
    def __init__(self):
        self.opt = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, params, state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, state = self.opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state


TRAINER = Trainer()


def train(params, batches, lrs, report):
    state = TRAINER.opt.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, state = TRAINER.step(params, state, x, y)
        report(epoch, params)
    return params
