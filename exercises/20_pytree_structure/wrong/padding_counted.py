# expect: values
# Pads the heads to 3 rows of zeros and averages all 3 rows: the empty slots count as heads that predict 0.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _loss(pred, target, weight, aux):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    return wmse(pred) + 0.5 * jnp.mean(wmse(aux))


def batch_loss(batch):
    pred = batch["pred"]
    n = pred.shape[0]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones(n, np.float32)
    aux = np.zeros((3, n), np.float32)
    for i, h in enumerate(batch.get("aux") or []):
        aux[i] = h
    return _loss(pred, batch["target"], weight, aux)
