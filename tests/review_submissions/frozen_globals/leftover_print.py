# expect: pass
# review: review.left.callback
# Right, with a leftover: a silent callback that recorded the scale while debugging still runs on every call.
import jax
import jax.numpy as jnp

SCALE = 2.0
scales = []


@jax.jit
def scaled_relu(x, scale):
    jax.debug.callback(lambda s: scales.append(float(s)), scale)
    return jnp.maximum(0, x) * scale
