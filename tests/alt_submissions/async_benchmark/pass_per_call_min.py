# expect: pass
# Times every call on its own, waiting for each result, and reports the fastest one.
import time

import jax


def time_step(step, x, repeats):
    jax.block_until_ready(step(x))
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = step(x)
        out.block_until_ready()
        times.append(time.perf_counter() - t0)
    return min(times)
