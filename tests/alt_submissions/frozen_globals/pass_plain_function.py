# expect: pass
# Not decorated: the grader wraps it in jax.jit, and scale is traced.
import jax.numpy as jnp

SCALE = 2.0


def scaled_relu(x, scale):
    return jnp.maximum(0, x) * scale
