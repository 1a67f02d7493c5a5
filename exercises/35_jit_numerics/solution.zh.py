import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    """时刻 t 的需求：一个基准水平，加上趋势乘以 t。"""
    return trend * t + level


def residual(observed, trend, t):
    """趋势解释不了的部分：在趋势恰好拟合观测值的地方为零。"""
    return observed - trend * t


# 融合给结果带来的变化，只是参与运算的最大那些值的几个 float32 舍入步长（每个约为它们的 1.2e-7）。
# 真正的 bug 带来的变化要大得多。容差以最大的量级为尺度，而不是逐元素衡量：在有项相互抵消的地方，
# eager 模式的结果可能恰好是 0，而被 jit 的函数的结果仍带着舍入误差。
RTOL = 1e-5


def close_enough(expected, actual):
    expected = np.asarray(expected, dtype=np.float64)
    actual = np.asarray(actual, dtype=np.float64)
    scale = np.max(np.abs(expected))
    # 这样写，任何位置出现 NaN 都会得到 False：与 NaN 的每一次比较都是 False。
    return bool(np.all(np.abs(actual - expected) <= RTOL * scale))


def test_jit_matches_eager(level, trend, t, observed):
    for fn, args in ((forecast, (level, trend, t)), (residual, (observed, trend, t))):
        assert close_enough(fn(*args), jax.jit(fn)(*args)), f"{fn.__name__}: jit changed the result"
