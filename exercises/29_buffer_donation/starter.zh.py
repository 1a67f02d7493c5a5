import jax
import jax.numpy as jnp

CLIP = 1.0


@jax.jit
def sgd_step(w, g, lr):
    """一次更新：沿梯度的反方向走一步，再把每个权重限制在 [-CLIP, CLIP] 之内。"""
    return jnp.clip(w - lr * g, -CLIP, CLIP)


def train(w, grads, lr):
    changes = []
    for g in grads:
        new_w = sgd_step(w, g, lr)
        # TODO：sgd_step 每次都把结果写进一个新缓冲区，所以此刻新旧两份权重同时存活：
        # 每一步都需要能放下两份权重的内存。
        changes.append(jnp.max(jnp.abs(new_w - w)))
        w = new_w
    return w, changes


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run buffer_donation`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    w = jnp.zeros(4)
    grads = [jnp.ones(4), -jnp.ones(4)]
    print(train(w, grads, 0.3))
