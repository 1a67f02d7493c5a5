# expect: warm_up
# Also times the compile with the same clock: the first clock read comes before the warm-up, so the compile is
# inside the timed window.
import time


def time_step(step, x, repeats):
    t_compile = time.perf_counter()
    step(x).block_until_ready()
    compile_s = time.perf_counter() - t_compile
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    return (time.perf_counter() - start) / repeats
