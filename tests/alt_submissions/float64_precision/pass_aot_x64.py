# expect: pass
# Compiled ahead of time for float64[512], and called with 64-bit types on so the input stays float64.
import jax
import jax.numpy as jnp


def _gaps(t):
    return t[1:] - t[:-1]


with jax.enable_x64(True):
    _compiled = jax.jit(_gaps).lower(jax.ShapeDtypeStruct((512,), jnp.float64)).compile()


def gaps(t):
    with jax.enable_x64(True):
        return _compiled(t)
