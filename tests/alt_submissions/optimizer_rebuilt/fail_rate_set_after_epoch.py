# expect: values
# inject_hyperparams, but the rate is updated after each epoch's steps, ready for the next one: every epoch runs
# with the rate of the epoch before.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


opt = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)


@jax.jit
def step(params, state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


def train(params, batches, lrs, report):
    state = opt.init(params)
    state.hyperparams["learning_rate"] = np.float32(lrs[0])
    for epoch, lr in enumerate(lrs, start=1):
        for x, y in batches:
            params, state = step(params, state, x, y)
        state.hyperparams["learning_rate"] = np.float32(lr)
        report(epoch, params)
    return params
