# expect: pass
# Power-of-two buckets padded with NumPy; the true length passed in and the padding masked.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def masked_loss(params, x, y, length):
    valid = jnp.arange(x.shape[1]) < length
    feats = jnp.tanh(x[..., None] * params["w_in"] + params["b_in"])
    pooled = jnp.where(valid[None, :, None], feats, 0.0).sum(axis=1) / length
    pred = pooled @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        n = x.shape[1]
        width = 1
        while width < n:
            width *= 2
        xp = np.pad(x, ((0, 0), (0, width - n)))
        losses.append(float(masked_loss(params, xp, y, np.int32(n))))
    return float(np.mean(losses))
