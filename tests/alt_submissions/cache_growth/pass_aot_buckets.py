# expect: pass
# One ahead-of-time compiled program per power-of-two width, kept in a dict: at most 8.
import jax
import jax.numpy as jnp
import numpy as np


def padded_loss(params, x, y, n):
    feats = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    mask = (jnp.arange(x.shape[1]) < n)[None, :, None]
    pred = (feats * mask).sum(axis=1) / n @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


compiled = {}


def evaluate(params, task):
    losses = []
    for x, y in task:
        n = x.shape[1]
        width = 1 << (n - 1).bit_length()
        xp = np.zeros((8, width), np.float32)
        xp[:, :n] = x
        if width not in compiled:
            compiled[width] = jax.jit(padded_loss).lower(params, xp, y, np.float32(n)).compile()
        losses.append(float(compiled[width](params, xp, y, np.float32(n))))
    return sum(losses) / len(losses)
