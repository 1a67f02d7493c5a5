# expect: no_recompile
# Binds the optimizer with functools.partial and jits that on every call: a new partial is a new function, with
# an empty cache.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)

from functools import partial


def _step(tx, params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train_step(params, opt_state, x, y):
    return jax.jit(partial(_step, optimizer))(params, opt_state, x, y)
