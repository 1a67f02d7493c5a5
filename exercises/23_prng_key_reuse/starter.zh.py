import jax
import jax.numpy as jnp

KEEP = 0.75  # 每个元素以这个概率保留下来


@jax.jit
def two_views(key, x):
    # TODO：两个视图都用同一个密钥抽取，所以丢弃的元素一模一样；而且交回去的也是这同一个密钥，
    # 所以下一次调用又会抽出同样的掩码。
    keep_a = jax.random.bernoulli(key, KEEP, x.shape)
    keep_b = jax.random.bernoulli(key, KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), key
