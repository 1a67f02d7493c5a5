# expect: runs
# Written for the statement's example: N = 4 and at most two heads. Other lengths, or a third head, break it.
import jax
import jax.numpy as jnp
import numpy as np

ONES = np.ones(4, np.float32)


@jax.jit
def _loss(pred, target, weight, aux, mask):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    k = jnp.sum(mask)
    return wmse(pred) + 0.5 * jnp.where(k > 0, jnp.sum(jnp.where(mask, wmse(aux), 0.0)) / jnp.maximum(k, 1), 0.0)


def batch_loss(batch):
    weight = batch.get("weight")
    if weight is None:
        weight = ONES
    aux = np.zeros((2, 4), np.float32)
    heads = batch.get("aux") or []
    for i, h in enumerate(heads):
        aux[i] = h
    return _loss(batch["pred"], batch["target"], weight, aux, np.arange(2) < len(heads))
