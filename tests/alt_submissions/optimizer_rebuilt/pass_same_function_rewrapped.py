# expect: pass
# jax.jit written again every epoch, but around the same module-level function: the cache belongs to that
# function, so the later epochs reuse the first epoch's program.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


opt = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)


def step(params, state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


def train(params, batches, lrs, report):
    state = opt.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        jitted = jax.jit(step)
        state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, state = jitted(params, state, x, y)
        report(epoch, params)
    return params
