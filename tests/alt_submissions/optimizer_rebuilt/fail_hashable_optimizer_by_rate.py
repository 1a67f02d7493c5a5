# expect: epoch_compiles
# A hashable wrapper that compares optimizers by their rate: equal objects now match, but every epoch's rate is
# new, so every epoch is still a new static value.
import dataclasses
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@dataclasses.dataclass(frozen=True)
class Adam:
    lr: float

    @property
    def tx(self):
        return optax.adam(self.lr)


@functools.partial(jax.jit, static_argnums=4)
def step(params, state, x, y, opt):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, state = opt.tx.update(grads, state, params)
    return optax.apply_updates(params, updates), state


def train(params, batches, lrs, report):
    state = Adam(lrs[0]).tx.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        for x, y in batches:
            params, state = step(params, state, x, y, Adam(lr))
        report(epoch, params)
    return params
