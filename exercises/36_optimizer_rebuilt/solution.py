import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# One optimizer for the whole program. inject_hyperparams keeps the learning rate in the optimizer's state, as an
# array: a new rate is a new value flowing into the same program, not a new optimizer object.
optimizer = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)


# Nothing static: everything that changes between epochs is an array argument.
@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lrs, report):
    opt_state = optimizer.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        # float32, like the array init made: the same type every epoch, so the same cache key.
        opt_state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, opt_state, loss = train_step(params, opt_state, x, y)
        report(epoch, params)
    return params
