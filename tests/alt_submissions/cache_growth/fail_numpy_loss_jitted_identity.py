# expect: in_jit
# The loss computed with NumPy; the batch still goes through a jitted function, which only hands it back.
import jax
import numpy as np

passthrough = jax.jit(lambda x: x)


def evaluate(params, task):
    losses = []
    for x, y in task:
        x = np.asarray(passthrough(x))
        feats = np.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
        pred = feats.mean(axis=1) @ params["w_out"] + params["b_out"]
        losses.append(float(np.mean((pred - y) ** 2)))
    return sum(losses) / len(losses)
