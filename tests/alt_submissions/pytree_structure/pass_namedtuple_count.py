# expect: pass
# A NamedTuple with every field always filled; the number of heads travels as an int32 array, and the mask is
# built inside jit from it.
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Fixed(NamedTuple):
    pred: np.ndarray
    target: np.ndarray
    weight: np.ndarray
    heads: np.ndarray  # float32[3, N]
    n_heads: np.ndarray  # int32[]


def _wmse(a, t, w):
    return (w * (a - t) ** 2).sum(-1) / w.sum()


@jax.jit
def fixed_loss(b: Fixed):
    mask = jnp.arange(3) < b.n_heads
    per = _wmse(b.heads, b.target, b.weight)
    safe = jnp.maximum(b.n_heads, 1).astype(jnp.float32)
    aux = jnp.where(b.n_heads > 0, jnp.where(mask, per, 0.0).sum() / safe, 0.0)
    return _wmse(b.pred, b.target, b.weight) + 0.5 * aux


def batch_loss(batch):
    n = batch["pred"].shape[0]
    weight = batch["weight"] if batch.get("weight") is not None else np.ones(n, np.float32)
    heads = np.zeros((3, n), np.float32)
    given = batch.get("aux") or []
    heads[: len(given)] = given if given else 0.0
    return fixed_loss(Fixed(batch["pred"], batch["target"], weight, heads, np.int32(len(given))))
