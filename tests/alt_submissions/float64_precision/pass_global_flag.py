# expect: pass
# Turns 64-bit types on for the whole process at import, and jits gaps itself.
import jax

jax.config.update("jax_enable_x64", True)


@jax.jit
def gaps(t):
    return t[1:] - t[:-1]
