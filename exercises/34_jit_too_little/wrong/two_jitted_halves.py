# expect: one_program
# Two jitted halves: the gradient, then the update. Each step is two programs, two dispatches, and the gradients make
# a round trip between them.
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
def gradients(params, x, y):
    return jax.value_and_grad(loss_fn)(params, x, y)


@jax.jit
def apply_adam(params, opt_state, grads):
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train_step(params, opt_state, x, y):
    loss, grads = gradients(params, x, y)
    params, opt_state = apply_adam(params, opt_state, grads)
    return params, opt_state, loss
