import jax
import jax.numpy as jnp


def forecast(level, trend, t):
    """时刻 t 的需求：一个基准水平，加上趋势乘以 t。"""
    return trend * t + level


def residual(observed, trend, t):
    """趋势解释不了的部分：在趋势恰好拟合观测值的地方为零。"""
    return observed - trend * t


def close_enough(expected, actual):
    """`actual`（被 jit 的函数的结果）与 `expected`（eager 模式的结果）只差 float32 舍入时为 True；
    真正不同时为 False。"""
    # TODO：逐位相等。一切都以 eager 模式运行时它成立；模型被 jit 之后，
    # 这个回归测试就失败了，尽管什么都没有错。
    return bool(jnp.all(expected == actual))


def test_jit_matches_eager(level, trend, t, observed):
    for fn, args in ((forecast, (level, trend, t)), (residual, (observed, trend, t))):
        assert close_enough(fn(*args), jax.jit(fn)(*args)), f"{fn.__name__}: jit changed the result"


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run jit_numerics`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    t = jnp.asarray(rng.uniform(0, 100, 128), jnp.float32)
    trend = jnp.asarray(rng.uniform(-3, 3, 128), jnp.float32)
    level = jnp.asarray(rng.uniform(-300, 300, 128), jnp.float32)
    observed = trend * t  # 这些观测值恰好完全由趋势解释
    test_jit_matches_eager(level, trend, t, observed)
    print("the jitted model matches the eager one")
