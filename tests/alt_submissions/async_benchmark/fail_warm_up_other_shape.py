# expect: warm_up
# Warms up on a small dummy array: that compiles step for another shape, so the timed calls compile again.
import time

import jax.numpy as jnp


def time_step(step, x, repeats):
    step(jnp.ones((2, 2), jnp.float32)).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    out.block_until_ready()
    return (time.perf_counter() - start) / repeats
