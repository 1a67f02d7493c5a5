import jax


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    # 64-bit types only for this computation: inside the block, t enters jit as float64 and the
    # result stays float64. The rest of the program keeps JAX's 32-bit defaults.
    with jax.enable_x64(True):
        return _gaps(t)
