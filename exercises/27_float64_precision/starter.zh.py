import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # TODO: t 以 float64 NumPy 数组的形式传进来，但 jit 在入口处就把它变成了 float32，而且没有任何警告：
    # 在 1.7e9 秒附近，float32 分不清相隔不到一两分钟的两个时刻。
    return _gaps(t)
