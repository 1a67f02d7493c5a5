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


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run prng_key_reuse`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    view_a, view_b, key = two_views(jax.random.key(0), jnp.ones(8))
    print(view_a)
    print(view_b)
