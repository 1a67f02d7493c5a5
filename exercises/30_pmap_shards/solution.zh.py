import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    """在一个设备上运行：求这个设备分到的那份 x 的平方和。"""
    return jnp.sum(chunk**2)


chunk_sums = jax.pmap(chunk_sum)


def sum_of_squares(x):
    devices = jax.local_device_count()
    # 用零填充到设备数的整数倍（零不会改变平方和），
    # 再让第 0 轴正好每个设备一行。
    padded = jnp.pad(x, (0, -x.shape[0] % devices))
    partial_sums = chunk_sums(padded.reshape(devices, -1))
    return jnp.sum(partial_sums)
