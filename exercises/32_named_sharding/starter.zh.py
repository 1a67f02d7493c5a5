import jax
import jax.numpy as jnp


@jax.jit
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    # TODO：没有任何地方说明 x 和结果应该放在哪里，于是 jit 把 x 放到一个设备上，在那里运行整个程序；
    # 其他设备都闲着，两个结果也都回到那一个设备上。
    return _normalize(x)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run named_sharding`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = np.arange(24, dtype=np.float32).reshape(8, 3) + 1
    y, norms = normalize_rows(x)
    print(y.sharding, norms.sharding)
