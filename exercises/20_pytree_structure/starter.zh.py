import jax
import jax.numpy as jnp


@jax.jit
def _loss(batch):
    pred, target = batch["pred"], batch["target"]
    weight = batch.get("weight")
    if weight is None:
        weight = jnp.ones_like(pred)

    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2) / jnp.sum(weight)

    heads = batch.get("aux") or []
    aux_term = sum(wmse(h) for h in heads) / len(heads) if heads else 0.0
    return wmse(pred) + 0.5 * aux_term


def batch_loss(batch):
    # TODO：每个批次的可选条目都有自己的组合（某个键有或没有、None、由 0 到 3 个数组组成的列表），
    # 所以 _loss 每次都看到一种新的 pytree 结构，要重新追踪、重新编译。
    return _loss(batch)
