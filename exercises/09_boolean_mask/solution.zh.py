import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    # 固定数量的下标：先是好位置，然后是填充（一个越过末尾的下标）。
    (idx,) = jnp.nonzero(good, size=x.shape[0], fill_value=x.shape[0])
    kept = jnp.append(x, 0.0)[idx]  # 填充的下标读到追加的 0.0
    total = jnp.sum(jnp.where(good, x, 0.0))  # 带掩码的归约
    mean = jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
    return kept, count, mean
