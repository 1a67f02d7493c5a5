import jax
import jax.numpy as jnp

CLIP = 1.0


@jax.jit
def sgd_step(w, g, lr):
    """One update: step against the gradient, then keep every weight within [-CLIP, CLIP]."""
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
