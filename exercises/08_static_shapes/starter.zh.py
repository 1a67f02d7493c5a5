import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    # TODO：x[:n] 的长度取决于 n 的值，而在 jit 下 n 还没有值。
    return jnp.sum(x[:n])
