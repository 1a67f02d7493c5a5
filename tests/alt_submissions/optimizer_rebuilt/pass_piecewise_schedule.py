# expect: pass
# optax's own piecewise constant schedule, built from the rates once per run.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def train(params, batches, lrs, report):
    n = len(batches)
    schedule = optax.piecewise_constant_schedule(
        init_value=lrs[0], boundaries_and_scales={n * e: lrs[e] / lrs[e - 1] for e in range(1, len(lrs))})
    opt = optax.adam(learning_rate=schedule)
    step = jax.jit(lambda p, s, x, y: _step(opt, p, s, x, y))
    state = opt.init(params)
    for epoch in range(len(lrs)):
        for x, y in batches:
            params, state = step(params, state, x, y)
        report(epoch + 1, params)
    return params


def _step(opt, params, state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state
