import time


def time_step(step, x, repeats):
    """Seconds per call of step(x), averaged over `repeats` calls."""
    # TODO: this number is wrong twice over. The first call of step compiles it, inside the timed window,
    # and the clock stops as soon as the last call returns, while its work may still be running.
    start = time.perf_counter()
    for _ in range(repeats):
        out = step(x)
    stop = time.perf_counter()
    return (stop - start) / repeats


# Not graded: a scratch run (F6 in the app, `jittrainer run async_benchmark` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax

    step = jax.jit(lambda x: x @ x / 128)
    x = jax.numpy.ones((128, 128))
    print(time_step(step, x, 10))
