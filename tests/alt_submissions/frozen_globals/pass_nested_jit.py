# expect: pass
# Calls an inner jitted helper; the grader jits the outer function, scale stays traced all the way down.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def _relu_times(x, s):
    return jnp.maximum(0, x) * s


def scaled_relu(x, scale):
    return _relu_times(x, scale)
