# expect: one_compile
# Keeps one jitted function per structure it has seen: each new mix of optional entries still compiles.
import jax
import jax.numpy as jnp

_by_structure = {}


def _loss(batch):
    pred, target = batch["pred"], batch["target"]
    weight = batch.get("weight")
    if weight is None:
        weight = jnp.ones_like(pred)

    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2) / jnp.sum(weight)

    heads = batch.get("aux") or []
    return wmse(pred) + 0.5 * (sum(wmse(h) for h in heads) / len(heads) if heads else 0.0)


def batch_loss(batch):
    key = jax.tree_util.tree_structure(batch)
    if key not in _by_structure:
        _by_structure[key] = jax.jit(_loss)
    return _by_structure[key](batch)
