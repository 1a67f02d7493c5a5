# expect: pass
# One jitted call per epoch: lax.scan over the stacked batches.
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
def run_epoch(params, state, xs, ys, lr):
    state.hyperparams["learning_rate"] = lr

    def body(carry, batch):
        p, s = carry
        grads = jax.grad(loss_fn)(p, *batch)
        updates, s = opt.update(grads, s, p)
        return (optax.apply_updates(p, updates), s), None

    (params, state), _ = jax.lax.scan(body, (params, state), (xs, ys))
    return params, state


def train(params, batches, lrs, report):
    xs = np.stack([x for x, _ in batches])
    ys = np.stack([y for _, y in batches])
    state = opt.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        params, state = run_epoch(params, state, xs, ys, np.float32(lr))
        report(epoch, params)
    return params
