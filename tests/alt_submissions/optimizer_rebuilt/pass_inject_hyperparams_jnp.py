# expect: pass
# inject_hyperparams, the rate set each epoch as a jnp float32 array.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


opt = optax.inject_hyperparams(optax.adam)(learning_rate=0.02)


@jax.jit
def step(params, state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


def train(params, batches, lrs, report):
    state = opt.init(params)
    for epoch, lr in enumerate(lrs, 1):
        state.hyperparams["learning_rate"] = jnp.asarray(lr, dtype=jnp.float32)
        for x, y in batches:
            params, state = step(params, state, x, y)
        report(epoch, params)
    return params
