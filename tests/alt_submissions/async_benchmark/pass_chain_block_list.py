# expect: pass
# Feeds every result into the next call and waits for the whole list at the end; monotonic_ns clock.
import time

import jax


def time_step(step, x, repeats):
    y = step(x)
    jax.block_until_ready(y)
    outs = []
    t0 = time.monotonic_ns()
    for _ in range(repeats):
        y = step(y)
        outs.append(y)
    jax.block_until_ready(outs)
    t1 = time.monotonic_ns()
    return (t1 - t0) / 1e9 / repeats
