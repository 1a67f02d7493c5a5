# expect: grad_finite
# A correct double where, compiled ahead of time: jax.grad cannot differentiate the compiled executable.
import jax
import jax.numpy as jnp


def _lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    safe = jnp.where(sq > 0, sq, 1.0)
    return jnp.where(sq > 0, jnp.sqrt(safe), 0.0)


lengths = jax.jit(_lengths).lower(jax.ShapeDtypeStruct((32, 3), jnp.float32)).compile()
