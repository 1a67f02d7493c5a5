import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # TODO: t arrives as a float64 NumPy array, but jit turns it into float32 on the way in, with no
    # warning: near 1.7e9 seconds, float32 cannot tell apart two times less than a minute or two apart.
    return _gaps(t)
