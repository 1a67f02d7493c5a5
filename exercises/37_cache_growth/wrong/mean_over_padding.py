# expect: values
# Power-of-two buckets padded with NumPy, but the average runs over the padded width: the zeros count as data.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        n = x.shape[1]
        width = 1 << (n - 1).bit_length()
        xp = np.zeros((x.shape[0], width), np.float32)
        xp[:, :n] = x
        losses.append(float(batch_loss(params, xp, y)))
    return sum(losses) / len(losses)
