# expect: pass
# The scoped switch around a jitted jnp.diff made once, at module level.
import jax
import jax.numpy as jnp

_diff = jax.jit(jnp.diff)


def gaps(t):
    with jax.enable_x64():
        out = _diff(t)
    return out
