import time


def time_step(step, x, repeats):
    """step(x) 每次调用的秒数，取 `repeats` 次调用的平均值。"""
    # 在计时之外预热：第一次调用会编译 step，等它的结果就绪，也把这次运行挡在计时之外。
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    # 被 jit 的调用在工作派发出去后就返回：停表之前要等最后一个结果就绪。
    out.block_until_ready()
    stop = time.perf_counter()
    return (stop - start) / repeats
