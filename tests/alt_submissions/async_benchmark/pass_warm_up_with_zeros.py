# expect: pass
# Warms up with zeros of x's shape and dtype rather than x itself: nothing compiles inside the window either way.
import time

import jax.numpy as jnp


def time_step(step, x, repeats):
    step(jnp.zeros_like(x)).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    return (time.perf_counter() - start) / repeats
