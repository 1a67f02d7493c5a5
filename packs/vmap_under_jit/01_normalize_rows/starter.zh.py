import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    # 一行：减去它的均值，再除以它的标准差。每一行的结果都必须和它算出的一样。
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    # TODO：在 jit 下，这个循环在 JAX 追踪时运行，每一行一次：记录下来的程序里有什么？
    return jnp.stack([normalize_row(x) for x in xs])


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run normalize_rows`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    xs = jnp.arange(12.0).reshape(3, 4)
    print(normalize_rows(xs))
