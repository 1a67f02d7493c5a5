import jax
import jax.numpy as jnp


@jax.jit
def lookup_prices(prices, dishes):
    # 把约定写成代码，而不是相信下标：只有 0 .. n - 1 才是菜。
    valid = (dishes >= 0) & (dishes < prices.shape[0])
    # prices[dishes] 会把非法的编号截断到某道菜上；jnp.where 把这些值丢掉。
    return jnp.where(valid, prices[dishes], -1.0)
