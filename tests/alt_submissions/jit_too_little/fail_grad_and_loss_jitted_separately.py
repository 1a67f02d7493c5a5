# expect: one_program
# Jits the gradient and the loss as two functions and updates eagerly: three kinds of programs per step.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grad_fn = jax.jit(jax.grad(loss_fn))
loss_jit = jax.jit(loss_fn)


def train_step(params, opt_state, x, y):
    grads = grad_fn(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss_jit(params, x, y)
