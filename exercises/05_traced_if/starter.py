import jax


@jax.jit
def heat(delta):
    # TODO: under jit, delta is a tracer: Python cannot tell whether it is above zero while tracing.
    if delta > 0:
        return 1.5 * delta + 2.0
    return 0.25 * delta


# Not graded: a scratch run (F6 in the app, `jittrainer run traced_if` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    print(heat(2.0))
    print(heat(-4.0))
    print(heat(0.0))
