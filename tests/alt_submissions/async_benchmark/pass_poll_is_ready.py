# expect: pass
# Waits by polling is_ready(), with time.time() as the clock.
import time


def time_step(step, x, repeats):
    warm = step(x)
    while not warm.is_ready():
        pass
    begin = time.time()
    for _ in range(repeats):
        result = step(x)
    while not result.is_ready():
        pass
    end = time.time()
    return (end - begin) / repeats
