import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # TODO: 有些行得到了 NaN。找出产生第一个 NaN 的运算（用 jax.debug_nans 或 checkify），
    # 修好它，然后再看一遍：可能不止一个。
    p = jnp.exp(logits) / jnp.sum(jnp.exp(logits), axis=-1, keepdims=True)
    return -jnp.sum(p * jnp.log(p), axis=-1)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run nan_hunting`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    logits = jnp.array([[0.0] * 8, [1000.0] + [0.0] * 7, [-1000.0] * 8])
    print(entropy(logits))
