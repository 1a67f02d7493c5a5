# expect: waits_for_result
# Waits by copying the last result to the host with np.asarray: it does wait, but the copy is timed too,
# and the contract counts only block_until_ready (or is_ready).
import time

import numpy as np


def time_step(step, x, repeats):
    step(x).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    np.asarray(out)
    return (time.perf_counter() - start) / repeats
