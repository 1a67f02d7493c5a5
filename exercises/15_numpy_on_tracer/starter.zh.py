import jax
import numpy as np


@jax.jit
def attention_weights(q, k):
    # 对 Python 数字用 NumPy 没问题：jit 追踪时 q.shape[-1] 就已知。
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ k.T) * scale
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    # TODO：在 jit 下，scores 是一个追踪器，而不是一组数字。NumPy 能拿它做什么？
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run numpy_on_tracer`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import jax.numpy as jnp

    q = jnp.ones((4, 8))
    k = jnp.ones((6, 8))
    print(attention_weights(q, k))
