# expect: precise
# Sets JAX_ENABLE_X64 from the file: JAX read that variable when it was imported, so it changes nothing.
import os

os.environ["JAX_ENABLE_X64"] = "1"

import jax  # noqa: E402


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    return _gaps(t)
