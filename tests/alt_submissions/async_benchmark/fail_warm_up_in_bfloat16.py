# expect: warm_up
# Warms up "cheaply" on one row of x: another shape, so the first timed call compiles inside the window.
import time

import jax


def time_step(step, x, repeats):
    jax.block_until_ready(step(x[:1]))
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / repeats
