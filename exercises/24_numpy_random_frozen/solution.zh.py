import jax

NOISE = 0.1  # 噪声的标准差


@jax.jit
def add_noise(x, key):
    # jax.random 在编译好的程序里、用传给它的密钥抽样：每次调用换一个新密钥就得到新的噪声，
    # 同一个密钥则再次得到同样的噪声。
    noise = jax.random.normal(key, x.shape, x.dtype)
    return x + NOISE * noise
