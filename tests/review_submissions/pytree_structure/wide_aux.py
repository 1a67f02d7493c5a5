# expect: pass
# review: review.cost.work
# Right, with far too much padding: the auxiliary heads are padded to 64 rows, where at most 3 can come, so every
# call moves and reduces 64 rows.
import jax
import jax.numpy as jnp
import numpy as np

MAX_AUX = 64


@jax.jit
def _loss(pred, target, weight, aux, aux_mask):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    heads = jnp.sum(aux_mask)
    aux_sum = jnp.sum(jnp.where(aux_mask, wmse(aux), 0.0))
    return wmse(pred) + 0.5 * jnp.where(heads > 0, aux_sum / jnp.maximum(heads, 1), 0.0)


def batch_loss(batch):
    pred = batch["pred"]
    n = pred.shape[0]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones(n, np.float32)
    heads = batch.get("aux") or []
    aux = np.zeros((MAX_AUX, n), np.float32)
    for row, head in zip(aux, heads):
        row[:] = head
    mask = np.arange(MAX_AUX) < len(heads)
    return _loss(pred, batch["target"], weight, aux, mask)
