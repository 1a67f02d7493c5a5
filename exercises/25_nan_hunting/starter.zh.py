import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # TODO: 有些行得到了 NaN。找出产生第一个 NaN 的运算（用 jax.debug_nans 或 checkify），
    # 修好它，然后再看一遍：可能不止一个。
    p = jnp.exp(logits) / jnp.sum(jnp.exp(logits), axis=-1, keepdims=True)
    return -jnp.sum(p * jnp.log(p), axis=-1)
