# expect: per_call
# Times the right thing, but returns the time of all the calls together instead of the time per call.
import time


def time_step(step, x, repeats):
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    return time.perf_counter() - start
