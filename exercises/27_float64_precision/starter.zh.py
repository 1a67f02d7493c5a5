import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # TODO: t 以 float64 NumPy 数组的形式传进来，但 jit 在入口处就把它变成了 float32，而且没有任何警告：
    # 在 1.7e9 秒附近，float32 分不清相隔不到一两分钟的两个时刻。
    return _gaps(t)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run float64_precision`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    t = np.array([1.7e9, 1.7e9 + 0.000001, 1.7e9 + 1.5])
    print(gaps(t))
