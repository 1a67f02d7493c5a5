import time


def time_step(step, x, repeats):
    """Seconds per call of step(x), averaged over `repeats` calls."""
    # TODO：这个数字错了两处。step 的第一次调用会编译它，而这次编译落在计时窗口里；
    # 最后一次调用一返回，时钟就停了，可它的工作可能还在运行。
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    stop = time.perf_counter()
    return (stop - start) / repeats
