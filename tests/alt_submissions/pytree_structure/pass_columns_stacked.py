# expect: pass
# pred and the three head slots stacked as the columns of one (N, 4) array; a float mask picks the real heads.
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit)
def loss_cols(cols, target, weight, head_mask):
    err = (cols - target[:, None]) ** 2  # (N, 4): column 0 is pred, columns 1..3 the head slots
    per_col = (weight[:, None] * err).sum(axis=0) / weight.sum()
    k = head_mask.sum()
    aux = jnp.where(k > 0, (per_col[1:] * head_mask).sum() / jnp.maximum(k, 1.0), 0.0)
    return per_col[0] + 0.5 * aux


def batch_loss(batch):
    pred = batch["pred"]
    n = pred.shape[0]
    cols = np.zeros((n, 4), np.float32)
    cols[:, 0] = pred
    heads = batch.get("aux") or []
    for j, h in enumerate(heads):
        cols[:, j + 1] = h
    head_mask = np.array([1.0 if j < len(heads) else 0.0 for j in range(3)], np.float32)
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones(n, np.float32)
    return loss_cols(cols, batch["target"], weight, head_mask)
