# expect: leaves_scale
# Issue case: multiplies by the argument (right), but a debug callback copies scale into SCALE at run time.
# The value equals what the grader set, so only the identity of the object shows the write.
import jax
import jax.numpy as jnp

SCALE = 2.0


def _remember(s):
    global SCALE
    SCALE = float(s)


@jax.jit
def scaled_relu(x, scale):
    jax.debug.callback(_remember, scale)
    return jnp.maximum(0, x) * scale
