# expect: per_call
# Reports milliseconds.
import time


def time_step(step, x, repeats):
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    return (time.perf_counter() - start) * 1000 / repeats
