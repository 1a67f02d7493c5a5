import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def attention_weights(q, k):
    # 追踪时形状是普通的 Python int：可以用 NumPy（或 math）拿它计算。
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ k.T) * scale
    # 由 q 和 k 算出的一切都被追踪：jax.numpy 把它记录进编译好的程序。
    scores = scores - jnp.max(scores, axis=-1, keepdims=True)
    e = jnp.exp(scores)
    return e / jnp.sum(e, axis=-1, keepdims=True)
