# expect: pass
# A registered dataclass: the class fixes the structure, optional entries become default values and a mask.
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class LossInputs:
    pred: jax.Array
    target: jax.Array
    weight: jax.Array
    aux: jax.Array
    present: jax.Array


@jax.jit
def compute(inp: LossInputs):
    def wmse(a):
        return jnp.sum(inp.weight * jnp.square(a - inp.target), axis=-1) / jnp.sum(inp.weight)

    count = jnp.count_nonzero(inp.present)
    total = jnp.sum(jnp.where(inp.present, wmse(inp.aux), 0.0))
    return wmse(inp.pred) + 0.5 * jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)


def batch_loss(batch):
    pred = batch["pred"]
    weight = batch.get("weight")
    heads = batch.get("aux") or []
    aux = np.zeros((3,) + pred.shape, np.float32)
    for i, head in enumerate(heads):
        aux[i] = head
    inputs = LossInputs(pred, batch["target"], np.ones_like(pred) if weight is None else weight, aux,
                        np.arange(3) < len(heads))
    return compute(inputs)
