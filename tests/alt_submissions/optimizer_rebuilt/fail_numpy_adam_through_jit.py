# expect: in_jit
# Adam computed with NumPy on the host; a jitted function receives the batch but only hands the new parameters
# back: they come out of jit, yet do not depend on the batch it got.
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grad_fn = jax.jit(jax.grad(loss_fn))
passthrough = jax.jit(lambda params, x: params)


def train(params, batches, lrs, report):
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(a) for k, a in params.items()}
    t = 0
    for epoch, lr in enumerate(lrs, start=1):
        for x, y in batches:
            grads = {k: np.asarray(g) for k, g in grad_fn(params, x, y).items()}
            t += 1
            new = {}
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** t), v[k] / (1 - 0.999 ** t)
                new[k] = (params[k] - lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            params = passthrough(new, x)
        report(epoch, params)
    return params
