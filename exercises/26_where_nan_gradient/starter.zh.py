import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    # TODO: 数值是对的，零向量也对，但 jax.grad 在零向量处给出 NaN：
    # where 在那里选了 0.0，可 sqrt(sq) 仍然在 sq = 0 处被计算，而它在那里的导数是 inf。
    return jnp.where(sq > 0, jnp.sqrt(sq), 0.0)
