# expect: reaches_jit
# The main term is computed under jit with a fixed structure; the aux term is averaged with NumPy on the host and
# passed in as a number, so the heads never reach jit.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _loss(pred, target, weight, aux_term):
    return jnp.sum(weight * (pred - target) ** 2) / jnp.sum(weight) + 0.5 * aux_term


def batch_loss(batch):
    pred, target = batch["pred"], batch["target"]
    weight = batch.get("weight")
    if weight is None:
        weight = np.ones_like(pred)
    heads = batch.get("aux") or []
    per = [np.sum(weight * (h - target) ** 2) / np.sum(weight) for h in heads]
    return _loss(pred, target, weight, np.float32(np.mean(per) if per else 0.0))
