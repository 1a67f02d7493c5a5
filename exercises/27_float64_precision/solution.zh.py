import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # 只在这次计算里用 64 位类型：在这个代码块里，t 以 float64 进入 jit，结果也保持 float64。
    # 程序的其余部分仍用 JAX 默认的 32 位。
    with jax.enable_x64(True):
        return _gaps(t)
