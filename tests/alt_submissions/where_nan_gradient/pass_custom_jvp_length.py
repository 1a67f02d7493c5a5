# expect: pass
# The length with a custom_jvp: the value is sqrt(v · v), exactly 0 at the zero vector, and the rule gives v / |v|,
# 0 at the zero vector.
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _norm(v):
    return jnp.sqrt(jnp.sum(v * v))


@_norm.defjvp
def _norm_jvp(primals, tangents):
    (v,), (t,) = primals, tangents
    n = _norm(v)
    unit = jnp.where(n > 0, v / jnp.where(n > 0, n, 1.0), 0.0)
    return n, jnp.dot(unit, t)


@jax.jit
def lengths(v):
    return jax.vmap(_norm)(v)
