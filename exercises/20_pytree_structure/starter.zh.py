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


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run pytree_structure`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    pred, target = np.ones(4, np.float32), np.zeros(4, np.float32)
    print(batch_loss({"pred": pred, "target": target}))
    print(batch_loss({"pred": pred, "target": target, "weight": None}))
    print(batch_loss({"pred": pred, "target": target, "aux": [pred]}))
