# expect: one_compile
# Right gaps, but gaps converts with jnp.asarray first: outside jit that runs eagerly and compiles a program of its
# own (JAX's stage), so the four calls compile twice.
import jax
import jax.numpy as jnp


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    with jax.enable_x64(True):
        t = jnp.asarray(t, dtype=jnp.float64)
        return _gaps(t)
