# expect: one_compile
# Right numbers, but a new lambda is jitted on every call, so every call compiles again.
import jax


def gaps(t):
    with jax.enable_x64(True):
        return jax.jit(lambda ts: ts[1:] - ts[:-1])(t)
