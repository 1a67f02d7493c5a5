# expect: reaches_jit
# One compile, right numbers, but the loss is computed with NumPy on the host: the jitted function only hands
# back the number it is given.
import jax
import numpy as np


@jax.jit
def _as_array(value):
    return value


def batch_loss(batch):
    pred, target = batch["pred"], batch["target"]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones_like(pred)

    def wmse(a):
        return np.sum(weight * (a - target) ** 2) / np.sum(weight)

    heads = batch.get("aux") or []
    aux_term = np.mean([wmse(h) for h in heads]) if heads else 0.0
    return _as_array(np.float32(wmse(pred) + 0.5 * aux_term))
