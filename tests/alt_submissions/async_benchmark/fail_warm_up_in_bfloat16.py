# expect: warm_up
# Warms up "cheaply" on x cast to bfloat16: another input dtype is another program, so the first timed call on x
# itself still compiles inside the window.
import time

import jax
import jax.numpy as jnp


def time_step(step, x, repeats):
    jax.block_until_ready(step(jnp.asarray(x, dtype=jnp.bfloat16)))
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / repeats
