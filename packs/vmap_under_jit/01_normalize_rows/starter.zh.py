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
