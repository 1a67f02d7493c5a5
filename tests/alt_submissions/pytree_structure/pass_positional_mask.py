# expect: pass
# Five positional arrays, always the same: ones for a missing weight, three padded rows and a boolean mask.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss_fixed(pred, target, weight, aux, mask):
    w_total = jnp.sum(weight)
    main = jnp.sum(weight * (pred - target) ** 2) / w_total
    per_head = jnp.sum(weight[None, :] * (aux - target[None, :]) ** 2, axis=1) / w_total
    n_heads = mask.sum()
    aux_mean = jnp.where(n_heads == 0, 0.0, jnp.sum(per_head * mask) / jnp.where(n_heads == 0, 1, n_heads))
    return main + 0.5 * aux_mean


def batch_loss(batch):
    pred = np.asarray(batch["pred"], np.float32)
    n = len(pred)
    w = batch.get("weight")
    w = np.ones(n, np.float32) if w is None else w
    heads = batch.get("aux", None) or []
    aux = np.zeros((3, n), np.float32)
    mask = np.zeros(3, np.float32)
    for i, h in enumerate(heads):
        aux[i] = h
        mask[i] = 1.0
    return loss_fixed(pred, batch["target"], w, aux, mask)
