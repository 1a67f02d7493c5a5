# expect: values
# The rate read from a global inside a step jitted once: it is read while tracing, so the first epoch's rate is
# baked into the program and later epochs keep it.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


LR = 0.01
scale = optax.scale_by_adam()


@jax.jit
def step(params, state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    direction, state = scale.update(grads, state, params)
    return jax.tree.map(lambda p, d: p - LR * d, params, direction), state


def train(params, batches, lrs, report):
    global LR
    state = scale.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        LR = lr
        for x, y in batches:
            params, state = step(params, state, x, y)
        report(epoch, params)
    return params
