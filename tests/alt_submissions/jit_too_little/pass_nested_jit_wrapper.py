# expect: pass
# Keeps the jitted loss and wraps the whole step in jax.jit: the inner jit is inlined into the outer program.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


fast_loss = jax.jit(loss_fn)


def _step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(fast_loss)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


train_step = jax.jit(_step)
