# expect: warm_up
# Calls step once before the clock (so the compile stays out), but does not wait for that call: its run is only
# dispatched, and it overlaps the timed calls.
import time


def time_step(step, x, repeats):
    step(x)
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    stop = time.perf_counter()
    return (stop - start) / repeats
