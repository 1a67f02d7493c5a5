import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    nonzero = sq > 0
    # 第一个 where 在 sq 为 0 的地方给 sqrt 一个安全的替身（1.0），所以 sqrt 和它的导数都不会碰到 0；
    # 第二个 where 再把这些行的真实值 0.0 放回去。
    safe = jnp.where(nonzero, sq, 1.0)
    return jnp.where(nonzero, jnp.sqrt(safe), 0.0)
