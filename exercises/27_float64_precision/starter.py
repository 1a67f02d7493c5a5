import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # TODO: t arrives as a float64 NumPy array, but jit turns it into float32 on the way in, with no
    # warning: near 1.7e9 seconds, float32 cannot tell apart two times less than a minute or two apart.
    return _gaps(t)


# Not graded: a scratch run (F6 in the app, `jittrainer run float64_precision` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    t = np.array([1.7e9, 1.7e9 + 0.000001, 1.7e9 + 1.5])
    print(gaps(t))
