import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    # TODO：x[x > 0] 的元素个数等于 x 里正数的个数：jit 追踪时无法知道这个数，
    # 所以没法给结果定一个形状。
    good = x[x > 0]
    count = good.shape[0]
    kept = jnp.pad(good, (0, x.shape[0] - count))
    mean = jnp.mean(good) if count else 0.0
    return kept, count, mean
