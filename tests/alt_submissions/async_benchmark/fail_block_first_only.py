# expect: waits_for_result
# Waits for the first timed result instead of the last one.
import time


def time_step(step, x, repeats):
    step(x).block_until_ready()
    outs = []
    start = time.perf_counter()
    for _ in range(repeats):
        outs.append(step(x))
    outs[0].block_until_ready()
    return (time.perf_counter() - start) / repeats
