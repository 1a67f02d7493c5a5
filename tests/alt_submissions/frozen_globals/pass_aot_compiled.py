# expect: pass
# Right: compiled ahead of time for float32[32] and a (weakly typed) Python float scale.
import jax
import jax.numpy as jnp

SCALE = 2.0


def _scaled_relu(x, scale):
    return jnp.maximum(x, 0) * scale


scaled_relu = jax.jit(_scaled_relu).lower(jax.ShapeDtypeStruct((32,), jnp.float32), 1.0).compile()
