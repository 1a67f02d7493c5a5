# expect: live_programs
# Padded on the host to the next multiple of 8: sixteen widths up to 128, and a sweep over forty lengths meets
# most of them. Fewer programs than lengths, but still more than 8 alive.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def padded_loss(params, x, y, n):
    # x: float32[8, width], only the first n positions of each row are data
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    mask = (jnp.arange(x.shape[1]) < n)[None, :, None]
    pred = (features * mask).sum(axis=1) / n @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        n = x.shape[1]
        width = -(-n // 8) * 8
        xp = np.zeros((x.shape[0], width), np.float32)
        xp[:, :n] = x
        losses.append(float(padded_loss(params, xp, y, n)))
    return sum(losses) / len(losses)
