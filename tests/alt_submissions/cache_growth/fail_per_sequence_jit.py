# expect: in_jit
# One jitted call per sequence (cleared per task): no single call receives a whole batch.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def pred_one(params, seq):
    return jnp.tanh(seq[:, None] * params["w_in"] + params["b_in"]).mean(axis=0) @ params["w_out"] + params["b_out"]


def evaluate(params, task):
    pred_one.clear_cache()
    losses = []
    for x, y in task:
        preds = np.array([float(pred_one(params, row)) for row in x])
        losses.append(float(np.mean((preds - y) ** 2)))
    return sum(losses) / len(losses)
