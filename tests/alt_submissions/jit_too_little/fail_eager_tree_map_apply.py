# expect: one_program
# Jits the gradient and the Adam update, then adds the updates with an eager tree map.
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
def updates_for(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return updates, opt_state, loss


def train_step(params, opt_state, x, y):
    updates, opt_state, loss = updates_for(params, opt_state, x, y)
    params = jax.tree.map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss
