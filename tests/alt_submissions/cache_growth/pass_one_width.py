# expect: pass
# Every batch padded to the largest length, 128: one program for the whole sweep.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss128(params, x, y, n):
    feats = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    keep = (jnp.arange(128) < n).astype(jnp.float32)[None, :, None]
    pred = jnp.sum(feats * keep, axis=1) / n @ params["w_out"] + params["b_out"]
    return jnp.mean(jnp.square(pred - y))


def evaluate(params, task):
    out = []
    for x, y in task:
        buf = np.zeros((8, 128), np.float32)
        buf[:, : x.shape[1]] = x
        out.append(float(loss128(params, buf, y, np.float32(x.shape[1]))))
    return sum(out) / len(out)
