# expect: warm_up
# Waits for the last result, but the clock starts before step has ever run: the first timed call compiles it,
# and the compile lands in the number.
import time


def time_step(step, x, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    stop = time.perf_counter()
    return (stop - start) / repeats
