import jax
import jax.numpy as jnp

_running = {}  # 累计统计量，从一次调用带到下一次


@jax.jit
def center(state, x):
    # 从 _running 里保存的统计量接着算；传进来的 state 只在第一次有用。
    state = _running.get("state", state)
    rows = x.shape[0]
    count = state["count"] + rows
    mean = state["mean"] + (jnp.sum(x, axis=0) - rows * state["mean"]) / count
    # TODO：jit 只在追踪时执行这个函数体，所以 _running 收到的是追踪器而不是数，
    # 之后的调用也再不会更新它。它本该带走的状态从来没有离开过这个函数。
    _running["state"] = {"mean": mean, "count": count}
    return state, x - mean


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run tracer_leak`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    state = {"mean": jnp.zeros(2), "count": jnp.int32(0)}
    print(center(state, jnp.array([[1.0, 2.0], [3.0, 4.0]])))
    print(center(state, jnp.array([[5.0, 6.0]])))
