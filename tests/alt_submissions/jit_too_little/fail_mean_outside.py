# expect: one_program
# The step is jitted and returns per-example squared errors; the mean is taken outside, eagerly.
import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)



def per_example(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return ((hidden @ params["w2"] + params["b2"]) - y) ** 2


@jax.jit
def _step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean(per_example(p, x, y)))(params)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, per_example(params, x, y)


def train_step(params, opt_state, x, y):
    params, opt_state, errors = _step(params, opt_state, x, y)
    return params, opt_state, jnp.mean(errors)
