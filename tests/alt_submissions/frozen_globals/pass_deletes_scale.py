# expect: pass
# Issue case: deletes the unused SCALE global. scaled_relu never needed it, so this is a right fix: the grader
# sets SCALE on the module whether or not the file defines it.
import jax
import jax.numpy as jnp


@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * scale
