# expect: pass
# Adam's scaling made once; the rate is an ordinary traced argument of the step.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


adam_scale = optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8)


@jax.jit
def step(params, state, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    direction, state = adam_scale.update(grads, state, params)
    params = jax.tree.map(lambda p, d: p - lr * d, params, direction)
    return params, state


def train(params, batches, lrs, report):
    state = adam_scale.init(params)
    for i, lr in enumerate(lrs):
        for x, y in batches:
            params, state = step(params, state, x, y, np.float32(lr))
        report(i + 1, params)
    return params
