# expect: pass
# The environment variable is read by the file itself and handed to jax.config.update, which works after import.
import os

os.environ.setdefault("JAX_ENABLE_X64", "1")

import jax  # noqa: E402

jax.config.update("jax_enable_x64", os.environ["JAX_ENABLE_X64"] == "1")


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    return _gaps(t)
