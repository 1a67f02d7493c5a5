# expect: one_program
# Everything is jitted but the last line: optax.apply_updates adds the updates to the parameters eagerly, one small
# program per parameter array.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def loss_and_updates(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return loss, updates, opt_state


def train_step(params, opt_state, x, y):
    loss, updates, opt_state = loss_and_updates(params, opt_state, x, y)
    return optax.apply_updates(params, updates), opt_state, loss
