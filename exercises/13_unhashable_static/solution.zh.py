from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="windows")
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    # 整数元组按其中的数字哈希和比较：相等的列表或元组会找到同一个编译好的程序。
    return _pool(x, windows=tuple(windows))
