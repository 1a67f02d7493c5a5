# expect: one_program
# Jits the loss and its gradient together, but leaves the Adam update eager: the update is still dozens of small
# programs per step.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


loss_and_grad = jax.jit(jax.value_and_grad(loss_fn))


def train_step(params, opt_state, x, y):
    loss, grads = loss_and_grad(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss
