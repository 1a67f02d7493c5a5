# expect: pass
# Compiles the step ahead of time on the first call with new shapes and reuses the compiled program afterwards.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


_compiled = {}


def _step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train_step(params, opt_state, x, y):
    key = str(jax.tree.map(lambda a: a.shape, (params, x, y)))
    if key not in _compiled:
        _compiled[key] = jax.jit(_step).lower(params, opt_state, x, y).compile()
    return _compiled[key](params, opt_state, x, y)
