# expect: values
# The learning rate lives in the optimizer's state (inject_hyperparams), but init runs again every epoch: the
# moments and the step count start from zero each time.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


optimizer = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train(params, batches, lrs, report):
    for epoch, lr in enumerate(lrs, start=1):
        opt_state = optimizer.init(params)
        opt_state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, opt_state = train_step(params, opt_state, x, y)
        report(epoch, params)
    return params
