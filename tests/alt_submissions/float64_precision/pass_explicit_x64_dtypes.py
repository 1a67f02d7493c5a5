# expect: pass
# The narrower flag: 64-bit types only where they are asked for explicitly. The timestamps are made a
# float64 jax.Array on purpose, so jit keeps them float64.
import jax
import jax.numpy as jnp

jax.config.update("jax_explicit_x64_dtypes", "allow")


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    return _gaps(jnp.asarray(t, dtype=jnp.float64))
