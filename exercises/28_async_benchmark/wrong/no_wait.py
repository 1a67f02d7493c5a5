# expect: waits_for_result
# Warms up outside the clock, but stops the clock as soon as the last call returns: with async dispatch the last
# call's work may still be running, so the time measured is mostly the time it took to queue the work.
import time


def time_step(step, x, repeats):
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    stop = time.perf_counter()
    return (stop - start) / repeats
