# expect: one_compile
# Fills in the missing weight, but hands the heads over as a Python list: a list of 2 heads and a list of 3 are
# different pytree structures, so every new number of heads compiles again.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _loss(pred, target, weight, heads):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2) / jnp.sum(weight)

    aux_term = sum(wmse(h) for h in heads) / len(heads) if heads else 0.0
    return wmse(pred) + 0.5 * aux_term


def batch_loss(batch):
    pred = batch["pred"]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones(pred.shape[0], np.float32)
    return _loss(pred, batch["target"], weight, list(batch.get("aux") or []))
