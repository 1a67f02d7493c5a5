# expect: in_jit
# Only the gradient is jitted; the optimizer, rebuilt each epoch, runs eagerly outside jit. Nothing recompiles after
# the first epoch (eager operations are cached by shape), but the Adam update is no longer in jitted code.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grad_fn = jax.jit(jax.value_and_grad(loss_fn))


def train(params, batches, lrs, report):
    opt_state = None
    for epoch, lr in enumerate(lrs, start=1):
        optimizer = optax.adam(lr)
        if opt_state is None:
            opt_state = optimizer.init(params)
        for x, y in batches:
            loss, grads = grad_fn(params, x, y)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            params = optax.apply_updates(params, updates)
        report(epoch, params)
    return params
