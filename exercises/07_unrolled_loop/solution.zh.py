import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    """一个带阻尼、越拉越硬的弹簧走一步：位置 x，速度 v。"""
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@jax.jit
def simulate(x, steps):
    # 循环是程序里的一个操作：循环体只追踪一次，steps 一直是被追踪的数，
    # 所以一个编译好的程序就能应付所有步数。
    v = jnp.zeros_like(x)
    x, v = lax.fori_loop(0, steps, lambda _, state: step(*state), (x, v))
    return x
