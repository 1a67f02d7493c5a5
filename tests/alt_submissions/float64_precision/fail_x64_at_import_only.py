# expect: precise
# Makes the jitted function inside the 64-bit block, at import, but calls it outside: what counts is
# the setting when the function is called (and traced), not when jax.jit is applied.
import jax

with jax.enable_x64(True):
    _gaps = jax.jit(lambda t: t[1:] - t[:-1])


def gaps(t):
    return _gaps(t)
