# expect: pass
# The double where, written with ones_like and a named helper.
import jax
import jax.numpy as jnp


def _safe_sqrt(x):
    ok = x > 0
    return jnp.where(ok, jnp.sqrt(jnp.where(ok, x, jnp.ones_like(x))), jnp.zeros_like(x))


@jax.jit
def lengths(v):
    return _safe_sqrt(jnp.einsum("ij,ij->i", v, v))
