import time


def time_step(step, x, repeats):
    """Seconds per call of step(x), averaged over `repeats` calls."""
    # Warm up outside the clock: the first call compiles step, and waiting for its result keeps its run out too.
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    # A jitted call returns once its work is dispatched: wait for the last result before stopping the clock.
    out.block_until_ready()
    stop = time.perf_counter()
    return (stop - start) / repeats
