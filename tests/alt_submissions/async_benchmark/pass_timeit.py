# expect: pass
# timeit runs the calls; the lambda waits for each result.
import timeit


def time_step(step, x, repeats):
    step(x).block_until_ready()
    total = timeit.timeit(lambda: step(x).block_until_ready(), number=repeats)
    return total / repeats
