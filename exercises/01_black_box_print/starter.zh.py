import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    # TODO: 这个 print 只在 JAX 追踪 normalize 时运行，所以它只打印一次，而且打印的是追踪器。
    print("mean of this batch:", mean)
    return (x - mean) / jnp.std(x)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run black_box_print`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(16.0)
    print(normalize(x))
    print(normalize(x * 10))
