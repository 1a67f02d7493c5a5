# expect: epoch_compiles
# A step factory called every epoch: the optimizer is closed over, not static, but each epoch gets a new jitted
# closure with an empty cache.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def make_step(opt):
    @jax.jit
    def step(params, state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state
    return step


def train(params, batches, lrs, report):
    state = optax.adam(lrs[0]).init(params)
    for epoch, lr in enumerate(lrs, start=1):
        step = make_step(optax.adam(lr))
        for x, y in batches:
            params, state = step(params, state, x, y)
        report(epoch, params)
    return params
