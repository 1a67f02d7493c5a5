# expect: one_compile
# Pads the heads into fixed rows with a mask, but passes the weight through as it came: None stays None, and a
# missing key becomes a missing argument, so the structure still changes.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _loss(d):
    weight = d.get("weight")
    if weight is None:
        weight = jnp.ones_like(d["pred"])

    def wmse(a):
        return jnp.sum(weight * (a - d["target"]) ** 2, axis=-1) / jnp.sum(weight)

    k = jnp.sum(d["mask"])
    aux = jnp.where(k > 0, jnp.sum(jnp.where(d["mask"], wmse(d["aux"]), 0.0)) / jnp.maximum(k, 1), 0.0)
    return wmse(d["pred"]) + 0.5 * aux


def batch_loss(batch):
    n = batch["pred"].shape[0]
    heads = batch.get("aux") or []
    aux = np.zeros((3, n), np.float32)
    for i, h in enumerate(heads):
        aux[i] = h
    d = {k: v for k, v in batch.items() if k != "aux"}
    d["aux"], d["mask"] = aux, np.arange(3) < len(heads)
    return _loss(d)
