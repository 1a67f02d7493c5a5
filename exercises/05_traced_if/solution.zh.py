import jax
import jax.numpy as jnp


@jax.jit
def heat(delta):
    # 两个公式都在程序里；比较在运行期为传进来的每个 delta 选出其中一个。
    return jnp.where(delta > 0, 1.5 * delta + 2.0, 0.25 * delta)
