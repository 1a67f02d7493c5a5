# expect: one_compile
# Pads the heads, but passes their number as a static argument: every new count is a new cache key.
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit, static_argnames="k")
def _loss(pred, target, weight, aux, k):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    aux_term = jnp.mean(wmse(aux[:k])) if k else 0.0
    return wmse(pred) + 0.5 * aux_term


def batch_loss(batch):
    pred = batch["pred"]
    n = pred.shape[0]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones(n, np.float32)
    heads = batch.get("aux") or []
    aux = np.zeros((3, n), np.float32)
    for i, h in enumerate(heads):
        aux[i] = h
    return _loss(pred, batch["target"], weight, aux, k=len(heads))
