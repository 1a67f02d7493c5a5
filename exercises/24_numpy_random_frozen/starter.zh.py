import jax
import numpy as np

NOISE = 0.1  # 噪声的标准差


@jax.jit
def add_noise(x, key):
    # TODO: np.random 只在 JAX 追踪 add_noise 时抽取一次这些数，编译好的程序把它们当作常量保存：
    # 每次调用加上的都是同一份“噪声”，不管传进来的是哪个密钥。
    noise = np.random.normal(size=x.shape)
    return x + NOISE * noise
