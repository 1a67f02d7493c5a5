# expect: values
# One structure and one compile, but the aux term is divided by 3, the number of slots, instead of the number of
# real heads.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _loss(pred, target, weight, aux, mask):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    return wmse(pred) + 0.5 * jnp.sum(jnp.where(mask, wmse(aux), 0.0)) / 3


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
    return _loss(pred, batch["target"], weight, aux, np.arange(3) < len(heads))
