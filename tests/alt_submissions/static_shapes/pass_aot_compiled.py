# expect: pass
# Right: compiled ahead of time for a float32[16] and an int32 scalar; the mask keeps every shape fixed.
import jax
import jax.numpy as jnp


def _sum_first_n(x, n):
    return jnp.sum(x * (jnp.arange(x.shape[0]) < n))


sum_first_n = jax.jit(_sum_first_n).lower(
    jax.ShapeDtypeStruct((16,), jnp.float32), jax.ShapeDtypeStruct((), jnp.int32)
).compile()
