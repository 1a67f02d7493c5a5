# expect: pass
# Compiles ahead of time before the clock (no warm-up run needed), then times the compiled copy.
import time

import jax


def time_step(step, x, repeats):
    compiled = step.lower(x).compile()
    start = time.perf_counter()
    for _ in range(repeats):
        out = compiled(x)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / repeats
