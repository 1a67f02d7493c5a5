from functools import partial

import jax
import jax.numpy as jnp

CLIP = 1.0


@partial(jax.jit, donate_argnums=0)
def sgd_step(w, g, lr):
    """一次更新：沿梯度的反方向走一步，再把每个权重限制在 [-CLIP, CLIP] 之内。权重被捐赠：
    XLA 把新权重写进它们的缓冲区，传进来的数组会被删除。"""
    new_w = jnp.clip(w - lr * g, -CLIP, CLIP)
    # 变化量在这一步里面量，那时旧权重还在。
    return new_w, jnp.max(jnp.abs(new_w - w))


def train(w, grads, lr):
    changes = []
    for g in grads:
        w, change = sgd_step(w, g, lr)  # 立刻重新绑定：旧的 w 再也不能被读取
        changes.append(change)
    return w, changes
