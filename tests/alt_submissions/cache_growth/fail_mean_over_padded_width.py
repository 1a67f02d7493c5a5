# expect: values
# Power-of-two buckets padded with NumPy, but the features are averaged over the padded width: the padding counts.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def padded_loss(params, x, y):
    feats = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = feats.sum(axis=1) / x.shape[1] @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        width = 1 << (x.shape[1] - 1).bit_length()
        xp = np.zeros((8, width), np.float32)
        xp[:, : x.shape[1]] = x
        losses.append(float(padded_loss(params, xp, y)))
    return sum(losses) / len(losses)
