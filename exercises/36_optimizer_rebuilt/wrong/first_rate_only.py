# expect: values
# One optimizer, made once: no more recompiles, but it keeps the first epoch's learning rate for the whole run.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def train(params, batches, lrs, report):
    optimizer = optax.adam(lrs[0])

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    opt_state = optimizer.init(params)
    for epoch in range(1, len(lrs) + 1):
        for x, y in batches:
            params, opt_state = train_step(params, opt_state, x, y)
        report(epoch, params)
    return params
