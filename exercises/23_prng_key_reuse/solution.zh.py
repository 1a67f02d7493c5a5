import jax
import jax.numpy as jnp

KEEP = 0.75  # 每个元素以这个概率保留下来


@jax.jit
def two_views(key, x):
    # 一个密钥拆出三个相互独立的密钥：每个视图一个，再留一个新的给下一次调用。
    # 每个密钥只用一次；传进来的密钥只用来拆分。
    new_key, key_a, key_b = jax.random.split(key, 3)
    keep_a = jax.random.bernoulli(key_a, KEEP, x.shape)
    keep_b = jax.random.bernoulli(key_b, KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), new_key
